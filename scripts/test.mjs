// `npm test`: every check, in the order that keeps both cores busy. The type check, ESLint,
// knip and the builds (API bundle, admin, portal) each use about one core, so they run as two
// pairs side by side; Vitest and Playwright use every core and run alone. A failing
// stage stops the run (the other stage of its pair is left to finish, its output printed).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const timings = [];

/** Runs one command; `quiet` buffers its output and prints it whole when it ends (parallel stages). */
function run(label, command, args, { quiet = false } = {}) {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    });
    const chunks = [];
    if (quiet) for (const s of [child.stdout, child.stderr]) s.on('data', (d) => chunks.push(d));
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      timings.push([label, seconds, code]);
      if (quiet) process.stdout.write(`\n── ${label} (${seconds.toFixed(0)} s, exit ${code}) ──\n${Buffer.concat(chunks).toString()}`);
      done(code ?? 1);
    });
  });
}

async function sequence(steps) {
  for (const step of steps) {
    const code = await step();
    if (code !== 0) return code;
  }
  return 0;
}

function summary() {
  console.log('\nnpm test stages:');
  for (const [label, seconds, code] of timings)
    console.log(`  ${label.padEnd(30)} ${seconds.toFixed(0).padStart(4)} s${code === 0 ? '' : `  (exit ${code})`}`);
}

const npm = (label, script, opts) => () => run(label, 'npm', ['run', '--silent', script], opts);
const node = (label, file, opts) => () => run(label, process.execPath, [file], opts);

const code = await sequence([
  node('chromium', 'scripts/ensure-chromium.mjs'),
  async () => {
    // Balanced by their measured times: typecheck 70 s + knip 8 s + depcruise 15 s beside ESLint 26 s + builds 48 s.
    const results = await Promise.all([
      sequence([
        npm('typecheck', 'typecheck', { quiet: true }),
        () => run('knip', 'npx', ['knip'], { quiet: true }),
        npm('prettier', 'format:check', { quiet: true }),
        // Imports only point down the layers (docs/architecture.md, .dependency-cruiser.cjs).
        npm('depcruise', 'depcruise', { quiet: true }),
        // Every mounted /api route declares its answer (api/src/lib/openapi/contract.ts).
        npm('contracts', 'contracts:check', { quiet: true }),
      ]),
      sequence([
        () => run('eslint', 'npx', ['eslint', '.'], { quiet: true }),
        node('builds', 'scripts/build-if-stale.mjs', { quiet: true }),
      ]),
    ]);
    return results.find((c) => c !== 0) ?? 0;
  },
  npm('vitest', 'test:unit'),
  // The API suite again on a throwaway PostgreSQL cluster (issue 29; api/src/test/pg-global-setup.ts).
  npm('vitest (PostgreSQL)', 'test:unit:pg'),
  npm('playwright', 'test:e2e'),
  // A smoke set of the journeys (tagged @pg) again on a throwaway PostgreSQL cluster with two API
  // processes per server (issue 29; tests/helpers/postgres.ts).
  npm('playwright (PostgreSQL smoke)', 'test:e2e:pg'),
]);
summary();
process.exit(code);
