/**
 * Statements a request sends to PostgreSQL, by kind of the realistic mix (issue 29): the app runs in
 * this process on the bench database, node-postgres's Client.query is counted, and each kind's
 * requests (mix.ts nextRequest, reads only) go through app.request, `concurrency` at a time as the
 * mix's connections do (so cache-version reads are shared as they are under load). Prints statements
 * per response and this process's CPU per response, and with STATEMENTS_TOP=n each kind's most sent texts
 * (STATEMENTS_KINDS=search,members: only those kinds).
 * Run after `npm run bench` with DATABASE_URL set built both databases:
 * `DATABASE_URL=postgres://…/bench npx tsx tests/bench/statements.ts [requests per kind] [concurrency]`.
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { createApp } from '../../api/src/app';
import { openAppDb } from '../../api/src/db/open';
import { testEnv } from '../../api/src/env';
import { nextRequest, prepareMix, type Kind } from './mix';

const url = process.env.DATABASE_URL;
if (!url?.startsWith('postgres')) throw new Error('DATABASE_URL=postgres://… (the bench database) is required');
const perKind = Number(process.argv[2] ?? 200);
const concurrency = Number(process.argv[3] ?? 10);
const top = Number(process.env.STATEMENTS_TOP ?? 0);

let sent = 0;
const texts = new Map<string, number>();
const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
  sent++;
  if (top) {
    const c = a[0] as string | { text?: string };
    const text = (typeof c === 'string' ? c : (c.text ?? '')).replace(/\s+/g, ' ').slice(0, 160);
    texts.set(text, (texts.get(text) ?? 0) + 1);
  }
  return query.apply(this, a);
} as typeof pg.Client.prototype.query;

const admins = await prepareMix(join(tmpdir(), 'doanhoi-bench', 'bench.db'));
const env = testEnv({ DATABASE_URL: url, LOGIN_RATE_LIMIT: '100000', LOG_LEVEL: 'warn' });
// Not migrated here: the bench (npm run bench) did, with the same commit's migrations.
const db = openAppDb(env);
const app = createApp({ db, env });
for (const a of admins) {
  const res = await app.request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: a.email, password: 'bench-mix-123' }),
  });
  if (!res.ok) throw new Error(`sign-in ${a.email}: ${res.status}`);
  a.token = ((await res.json()) as { accessToken: string }).accessToken;
}

// STATEMENTS_KINDS=search,page: only these kinds.
const kinds = (process.env.STATEMENTS_KINDS?.split(',') ?? ['page', 'search', 'filters', 'members', 'tree', 'permissions']) as Kind[];
console.log(`${perKind} requests a kind, ${concurrency} at a time`);
for (const kind of kinds) {
  const draw = () =>
    Array.from({ length: perKind }, (_, i) => {
      const a = admins[i % admins.length]!;
      for (;;) {
        const r = nextRequest(a, 0);
        if (r.kind === kind) return { ...r, token: a.token! };
      }
    });
  // One warm-up pass (named statements, plans), then a counted one of other requests drawn alike.
  for (const counted of [false, true]) {
    const reqs = draw();
    texts.clear();
    const before = sent;
    const cpu = process.cpuUsage();
    let next = 0;
    let bad = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < reqs.length) {
          const r = reqs[next++]!;
          const res = await app.request(r.path, { method: r.method, headers: { authorization: `Bearer ${r.token}` } });
          await res.arrayBuffer();
          if (!res.ok) bad++;
        }
      }),
    );
    if (!counted) continue;
    const used = process.cpuUsage(cpu);
    const ms = (used.user + used.system) / 1000 / reqs.length;
    console.log(
      `${kind.padEnd(12)} ${((sent - before) / reqs.length).toFixed(2).padStart(6)} statements/response  ${ms.toFixed(2)} ms API CPU (system ${(used.system / 1000 / reqs.length).toFixed(2)})${bad ? `  ${bad} not ok` : ''}`,
    );
    if (top)
      for (const [t, n] of [...texts].sort((x, y) => y[1] - x[1]).slice(0, top))
        console.log(`    ${(n / reqs.length).toFixed(2).padStart(5)}  ${t}`);
  }
}
await (db as unknown as { $client: { end(): Promise<void> } }).$client.end?.();
process.exit(0);
