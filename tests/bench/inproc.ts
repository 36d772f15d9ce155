/**
 * In-process costs on the bench database (issue 12 targets), each measured right after a write so
 * no cache helps: a university-level admin's scoped total with page 1 and a deep page (< 10 ms),
 * a search's count and page 1 (< 10 ms), and the organization tree's first request (< 30 ms).
 * Run after `npm run bench` built the database (prepareMix adds the admins):
 * `npx tsx tests/bench/inproc.ts [path to bench.db]`.
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadActor } from '../../api/src/access/actor';
import { openDb } from '../../api/src/db/client';
import { testEnv } from '../../api/src/env';
import { newReadEpoch } from '../../api/src/lib/freshness';
import { organizationsService } from '../../api/src/organizations/service';
import { listUsers } from '../../api/src/users/listing';

const path = process.argv[2] ?? join(tmpdir(), 'doanhoi-bench', 'bench.db');
const db = openDb(path);
const c = db.$client;
const idOf = (email: string) => c.prepare('SELECT id FROM users WHERE email = ?').pluck().get(email) as number;
const university = (await loadActor(db, idOf('mix2@bench.vn')))!;
const superAdmin = (await loadActor(db, idOf('mix0@bench.vn')))!;
const someMember = c.prepare('SELECT organization_id, user_id FROM organization_members LIMIT 1').get() as {
  organization_id: number;
  user_id: number;
};

// A second connection, as the import/export worker holds: its writes also reset this
// connection's page cache (WAL), so the next read fetches every page again.
const other = openDb(path).$client;

/** A write to users, memberships and organizations (a no-op value, but the triggers bump every version). */
function write(by = c) {
  by.prepare('UPDATE users SET phone = phone WHERE id = ?').run(someMember.user_id);
  by.prepare('UPDATE organization_members SET role = role WHERE organization_id = ? AND user_id = ?').run(
    someMember.organization_id,
    someMember.user_id,
  );
}

async function median(label: string, fn: () => unknown, runs = 7, by = c) {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    write(by);
    // What the server does as each request arrives: cache versions are confirmed again (lib/freshness.ts).
    newReadEpoch();
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(64)} ${ms[Math.floor(ms.length / 2)]!.toFixed(2).padStart(8)} ms (max ${ms.at(-1)!.toFixed(2)})`);
}

const q = { page: 1, limit: 10 } as Parameters<typeof listUsers>[2];
const uni = await listUsers(db, university, q);
console.log(
  `university admin scope: ${uni.total.toLocaleString('en')} users; ${c.prepare('SELECT count(*) FROM organizations').pluck().get()} organizations`,
);
await median('university admin: total + page 1 (after a write)', () => listUsers(db, university, q));
await median('university admin: page 5,000 (after a write)', () => listUsers(db, university, { ...q, page: 5000 }));
await median('super admin: page 5,000 (after a write)', () => listUsers(db, superAdmin, { ...q, page: 5000 }));
await median('super admin: page 5,000 (after another connection wrote)', () => listUsers(db, superAdmin, { ...q, page: 5000 }), 21, other);
for (const search of ['nguyen', 'Nguyễn Văn', 'le', 'hai', 'an'])
  await median(`university admin: search "${search}" count + page 1`, () => listUsers(db, university, { ...q, search }));
const deps = { db, env: testEnv({ DATABASE_PATH: path }) };
await median('tree, super admin: first request after a write (gzip)', async () =>
  (await organizationsService(deps, superAdmin, null).tree()).gzip(),
);
await median('tree, university admin: first request after a write (gzip)', async () =>
  (await organizationsService(deps, university, null).tree()).gzip(),
);
c.close();
other.close();
