// First step of `npm test`: the end-to-end tests drive Debian's Chromium at /usr/bin/chromium
// (tests/playwright.config.ts). When it is missing, install it the way .ci/run does if we may
// (root with apt-get), else stop at once with the one command that does, instead of failing
// minutes later deep inside Playwright.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
const INSTALL = 'sudo apt-get update && sudo apt-get install -y chromium';

if (!existsSync(CHROMIUM)) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!root || !apt) {
    console.error(`Chromium is missing at ${CHROMIUM}; the end-to-end tests need it. Install it with:\n\n  ${INSTALL}\n`);
    process.exit(1);
  }
  console.log(`Chromium is missing at ${CHROMIUM}: installing Debian's package…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed. Install Chromium with:\n\n  ${INSTALL}\n`);
      process.exit(1);
    }
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`apt-get finished but ${CHROMIUM} is still missing. Install Chromium with:\n\n  ${INSTALL}\n`);
    process.exit(1);
  }
}
