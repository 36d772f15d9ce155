/**
 * CPU of the organization tree right after a membership write, per caller shape of the mix
 * (super admin, university, faculty, class level): what a write makes the next tree rebuild.
 * `npx tsx tests/bench/tree-after-write.ts [path to bench.db]` (run `npm run bench` once first: it adds the mix admins).
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadActor } from '../../api/src/access/actor';
import { openDb } from '../../api/src/db/client';
import { testEnv } from '../../api/src/env';
import { newReadEpoch } from '../../api/src/lib/freshness';
import { organizationsService } from '../../api/src/organizations/service';

const path = process.argv[2] ?? join(tmpdir(), 'doanhoi-bench', 'bench.db');
const db = openDb(path);
const c = db.$client;
const deps = { db, env: testEnv({ DATABASE_PATH: path }) };
const actor = async (i: number) =>
  (await loadActor(db, c.prepare('SELECT id FROM users WHERE email = ?').pluck().get(`mix${i}@bench.vn`) as number))!;
const shapes = [
  ['super admin', await actor(0)],
  ['university', await actor(2)],
  ['faculty', await actor(6)],
  ['class', await actor(13)],
] as const;
const m = c.prepare('SELECT organization_id, user_id FROM organization_members WHERE is_active = 1 LIMIT 1').get() as {
  organization_id: number;
  user_id: number;
};
// A real change of one count (off, then on again), as the mix's add/remove member does.
let on = true;
const write = () => {
  on = !on;
  c.prepare('UPDATE organization_members SET is_active = ? WHERE organization_id = ? AND user_id = ?').run(
    on ? 1 : 0,
    m.organization_id,
    m.user_id,
  );
};
const runs = Number(process.env.RUNS ?? 41);
for (const gzip of [true, false]) {
  const ms: number[][] = shapes.map(() => []);
  for (let r = 0; r < runs; r++) {
    write();
    newReadEpoch();
    for (const [i, [, a]] of shapes.entries()) {
      const t0 = process.cpuUsage();
      const b = await organizationsService(deps, a, null).tree();
      if (gzip) b.gzip();
      else b.json();
      const d = process.cpuUsage(t0);
      ms[i]!.push((d.user + d.system) / 1000);
    }
  }
  for (const [i, [label]] of shapes.entries()) {
    const s = ms[i]!.slice(1).sort((a, b) => a - b);
    const q = (p: number) => s[Math.floor(p * (s.length - 1))]!.toFixed(2);
    console.log(`${(gzip ? 'gzip ' : 'plain ') + label}`.padEnd(24), `median ${q(0.5)} ms  (p10 ${q(0.1)}, p90 ${q(0.9)})`);
  }
}
c.close();
