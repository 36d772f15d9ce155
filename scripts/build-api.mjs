// Bundles the API (and its job worker) into api/dist, so `npm start` runs plain JavaScript: no
// TypeScript loader thread beside the server and its worker (≈ 90 MB and 2 s of start-up, issue 12).
// Packages stay in node_modules; only this repository's code (api/src and @doanhoi/shared) is bundled.
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');

/** `outdir` two levels below the repository (env.ts finds the repository from it); another one lets a test build beside api/dist. */
export async function buildApi(outdir = 'api/dist') {
  await build({
    absWorkingDir: root,
    entryPoints: { index: 'api/src/index.ts', worker: 'api/src/imports/worker.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'packages-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@doanhoi/shared') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildApi(process.argv[2]);
