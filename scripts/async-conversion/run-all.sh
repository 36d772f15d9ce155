#!/bin/sh
# Re-runnable conversion: codemod from the pre-codemod commit, then the post edits.
set -e
cd "$1"
ORIG=/work/pristine node /work/tools/async-codemod.mjs "$1" 40
python3 /work/tools/post.py "$1"
