/** One-off timing of GET /reports/membership on the 100k bench database (issue 30 item 8). */
import { existsSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { openDb } from '../../api/src/db/client';
import { membershipReport } from '../../api/src/reports/service';
import { generateBenchDb } from './generate';

const path = process.argv[2] ?? '/tmp/rep/bench.db';
if (!existsSync(path)) await generateBenchDb(path);
const db = openDb(path);
const roots = db.all<{ id: number; n: number }>(
  sql`SELECT o.id, (SELECT count(*) FROM organizations c WHERE c.path LIKE o.path || '%') AS n FROM organizations o WHERE o.parent_id IS NULL`,
);
const mid = db.get<{ id: number }>(sql`SELECT id FROM organizations WHERE parent_id = ${roots[0]!.id} LIMIT 1`)!;
for (const [label, id] of [
  ['root', roots[0]!.id],
  ['mid', mid.id],
] as const) {
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    // A write between runs, so the member counts are made again each time (no cache hit).
    db.run(sql`UPDATE cache_versions SET version = version + 1 WHERE name = 'organization_members'`);
    const t0 = performance.now();
    const r = await membershipReport(db, {
      organizationId: id,
      from: '2024-01-01',
      to: new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10),
    });
    times.push(performance.now() - t0);
    if (i === 0) console.log(label, 'units', r.units.length, 'end', r.units[0]!.total.end);
  }
  times.sort((a, b) => a - b);
  console.log(label, 'p50', times[15]!.toFixed(1), 'p99', times[29]!.toFixed(1), 'ms');
}
