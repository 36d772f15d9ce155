/**
 * The PostgreSQL figures beyond one statement at a time: an import's paused membership insert synced by
 * figures.sync_new_members, late and once for two batches with a membership written through the triggers between
 * them (against the same inserts unpaused, and SQLite's pause and set-wise rebuild in
 * organizations/bulk-members.ts); figures.scope_orgs for many ids against one user at a time, and a second sync
 * of the same users changing nothing; a unit moved under another parent (the report figures follow it on both
 * engines); a unit deleted that an accepted transfer came from (SQLite migration 0046); and two
 * transactions adding one member to two units at once, which queue on the member's row.
 */
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { comparisonUnavailable } from '../../test/pg-server';
import { usePgCluster } from '../../test/pg-cluster';
import { addNewUsersMemberships } from '../../organizations/bulk-members';
import { randomOps } from './trigger-ops.fixture';
import {
  engines,
  expectIndexedUnits,
  expectReportsRecounted,
  FIGURED,
  FIGURES,
  norm,
  RECOUNTS,
  type Both,
} from './trigger-figures.fixture';
import { withTransaction } from '../engine';

const missing = comparisonUnavailable();
if (missing) console.warn(`Skipping the PostgreSQL pause test: ${missing}`);

const table = (name: string) => `SELECT ${FIGURES[name]} FROM ${name} ORDER BY ${FIGURES[name]}`;

async function expectRecounted(both: Both) {
  for (const [kind, text] of Object.entries(RECOUNTS)) {
    const figured = FIGURED[kind as keyof typeof FIGURED];
    expect({ [kind]: both.sqlite(figured) }).toEqual({ [kind]: both.sqlite(text) });
    expect({ [kind]: await both.pg(figured) }).toEqual({ [kind]: await both.pg(text) });
  }
}

describe.skipIf(missing)('PostgreSQL figures: pause, move, concurrency', () => {
  const cluster = usePgCluster();

  it('a paused membership insert synced before the pause lifts equals the unpaused insert and SQLite’s rebuild', async () => {
    const { sqlite, client, both } = await engines(cluster(), 'paused');
    // The same writes unpaused, in a second PostgreSQL database.
    const other = await engines(cluster(), 'unpaused');
    other.sqlite.$client.close();
    const unpaused = other.client;
    try {
      const pgs = [client, unpaused];
      for (const op of randomOps(4, 150)) {
        sqlite.$client.exec(op('sqlite'));
        for (const c of pgs) await c.query(op('pg'));
      }
      const orgs = (sqlite.$client.prepare('SELECT id FROM organizations ORDER BY id').pluck().all() as number[]).slice(0, 14);
      const fresh = Array.from({ length: 30 }, (_, i) => 1000 + i);
      for (const id of fresh) {
        const row = (t: string) =>
          `INSERT INTO users (id, code, family_name, given_name, email, user_type, membership_status, is_active, gender, created_at, updated_at)
          VALUES (${id}, 'N${id}', 'Trần', 'Bình', 'n${id}@x', 'student', '${['doan_vien', 'hoi_vien', 'both', 'none'][id % 4]}', ${t}, ${id % 3 ? "'female'" : 'NULL'}, 0, 0)`;
        sqlite.$client.exec(row('1'));
        for (const c of pgs) await c.query(row('true'));
      }
      // Each new user in one to three units (an import's rows joined with their parents).
      const pairs = fresh.flatMap((userId, i) =>
        [...new Set([orgs[i % orgs.length], orgs[(i * 7) % orgs.length], orgs[(i * 3 + 1) % orgs.length]].slice(0, 1 + (i % 3)))].map(
          (organizationId) => ({ organizationId, userId }),
        ),
      );
      await withTransaction(sqlite, async (tx) => expect(await addNewUsersMemberships(tx, pairs)).toBe(true));
      const rows = sqlite.$client
        .prepare('SELECT id, organization_id, user_id, joined_at FROM organization_members WHERE user_id >= 1000 ORDER BY id')
        .raw()
        .all() as number[][];
      const insertOf = (some: number[][]) => `INSERT INTO organization_members (id, organization_id, user_id, role, is_active, joined_at)
        VALUES ${some.map(([id, org, user, at]) => `(${id}, ${org}, ${user}, 'member', true, ${at})`).join(', ')}`;
      const insert = insertOf(rows);
      // One more membership of the first new user, written through the triggers between two paused
      // batches (an import's deferred figures: withDeferredFigures), on every side.
      const [, , firstUser, at] = rows[0]!;
      const joined = new Set(rows.filter((r) => r[2] === firstUser).map((r) => r[1]));
      const extraOrg = orgs.find((o) => !joined.has(o))!;
      const extraId = Math.max(...rows.map((r) => r[0]!)) + 1;
      const extra = `INSERT INTO organization_members (id, organization_id, user_id, role, is_active, joined_at) VALUES (${extraId}, ${extraOrg}, ${firstUser}, 'member', true, ${at})`;
      sqlite.$client.exec(extra.replace('true', '1'));

      const counts = 'SELECT organization_id, direct, subtree FROM organization_member_counts ORDER BY 1';
      await client.query('BEGIN');
      const before = (await client.query(counts)).rows;
      const half = Math.ceil(rows.length / 2);
      await client.query(`INSERT INTO trigger_pauses (name) VALUES ('new_members')`);
      await client.query(insertOf(rows.slice(0, half)));
      // Paused: the insert counted nothing yet.
      expect((await client.query(counts)).rows).toEqual(before);
      await client.query(`DELETE FROM trigger_pauses WHERE name = 'new_members'`);
      await client.query(extra);
      await client.query(`INSERT INTO trigger_pauses (name) VALUES ('new_members')`);
      await client.query(insertOf(rows.slice(half)));
      // Synced once for both batches, late.
      await client.query(`SELECT figures.sync_new_members(ARRAY[${fresh.join(', ')}])`);
      await client.query(`DELETE FROM trigger_pauses WHERE name = 'new_members'`);
      await client.query('COMMIT');
      await unpaused.query(insert);
      await unpaused.query(extra);

      for (const name of Object.keys(FIGURES)) {
        const [lite, paused, straight] = [
          both.sqlite(table(name)),
          await both.pg(table(name)),
          norm((await unpaused.query({ text: table(name), rowMode: 'array' })).rows),
        ];
        expect(lite.length, name).toBeGreaterThan(0);
        expect({ [name]: paused }, 'paused and synced vs unpaused').toEqual({ [name]: straight });
        expect({ [name]: paused }, 'PostgreSQL vs SQLite').toEqual({ [name]: lite });
      }
      await expectRecounted(both);
      await expectIndexedUnits(client, sqlite);
      await expectIndexedUnits(unpaused);
    } finally {
      await unpaused.end();
      await client.end();
      sqlite.$client.close();
    }
  }, 60_000);

  it('figures.scope_orgs answers each id given, many at once as one at a time; a second sync of the same users changes nothing', async () => {
    const { sqlite, client, both } = await engines(cluster(), 'scopes');
    try {
      for (const op of randomOps(6, 200)) await client.query(op('pg'));
      const ids = (await both.pg('SELECT id FROM users ORDER BY id')).map(([id]) => id as number);
      // A user with no active membership, a repeated id, an id no user has.
      const ended = (
        await both.pg(
          'SELECT id FROM users u WHERE NOT EXISTS (SELECT 1 FROM organization_members m WHERE m.user_id = u.id AND m.is_active)',
        )
      ).length;
      expect(ended, 'some user without an active membership').toBeGreaterThan(0);
      const asked = [...ids, ids[0]!, 999_999];
      const { rows } = await client.query<{ user_id: number; orgs: number[] }>(`SELECT user_id, orgs FROM figures.scope_orgs($1::int[])`, [
        asked,
      ]);
      const oneByOne = async (id: number) =>
        (
          await client.query<{ orgs: number[] }>(
            `SELECT coalesce((SELECT array_agg(DISTINCT p ORDER BY p) FROM organization_members m JOIN organizations o ON o.id = m.organization_id,
              figures.path_ids(o.path) p WHERE m.user_id = $1 AND m.is_active), '{}') AS orgs`,
            [id],
          )
        ).rows[0]!.orgs;
      const byId = (rs: { user_id: number; orgs: number[] }[]) =>
        rs.map((r) => [r.user_id, r.orgs]).sort((a, b) => Number(a[0]) - Number(b[0]));
      // One client: one query at a time.
      const expected: { user_id: number; orgs: number[] }[] = [];
      for (const id of asked) expected.push({ user_id: id, orgs: await oneByOne(id) });
      expect(byId(rows)).toEqual(byId(expected));
      // Idempotent: every figure and index row already counts these users' memberships.
      const tables = Object.keys(FIGURES);
      const figures = async () => {
        const out: unknown[] = [];
        for (const name of tables) out.push(await both.pg(table(name)));
        return out;
      };
      const before = await figures();
      await client.query(`SELECT figures.sync_new_members($1::int[])`, [ids]);
      expect(await figures()).toEqual(before);
      await expectIndexedUnits(client);
    } finally {
      await client.end();
      sqlite.$client.close();
    }
  }, 60_000);

  it('the report figures follow a unit moved under another parent, on both engines', async () => {
    const { sqlite, client, both } = await engines(cluster(), 'moved');
    try {
      for (const op of randomOps(5, 250)) {
        sqlite.$client.exec(op('sqlite'));
        await client.query(op('pg'));
      }
      // A unit with units beneath it and members, moved under a unit outside its subtree, its subtree's paths rewritten in one statement.
      const [unit, path] = sqlite.$client
        .prepare(
          `SELECT o.id, o.path FROM organizations o WHERE o.parent_id IS NOT NULL AND EXISTS (SELECT 1 FROM organizations c WHERE c.parent_id = o.id)
          ORDER BY (SELECT count(*) FROM organization_members m JOIN organizations x ON x.id = m.organization_id WHERE substr(x.path, 1, length(o.path)) = o.path) DESC LIMIT 1`,
        )
        .raw()
        .get() as [number, string];
      const [target, targetPath] = sqlite.$client
        .prepare(`SELECT id, path FROM organizations WHERE substr(path, 1, length(?)) <> ? AND parent_id IS NOT NULL ORDER BY id LIMIT 1`)
        .raw()
        .get(path, path) as [number, string];
      const move = `UPDATE organizations SET parent_id = CASE WHEN id = ${unit} THEN ${target} ELSE parent_id END,
        path = '${targetPath}' || substr(path, ${path.length - `${unit}/`.length + 1}) WHERE substr(path, 1, ${path.length}) = '${path}'`;
      sqlite.$client.exec(move);
      await client.query(move);
      expect(both.sqlite(`SELECT path FROM organizations WHERE id = ${unit}`)).toEqual([[`${targetPath}${unit}/`]]);
      await expectReportsRecounted(both, 'after the move');
      // SQLite's FTS5 rows do not follow a move (the API never moves a unit); PostgreSQL's index does.
      await expectIndexedUnits(client);
      for (const name of ['report_member_cells', 'report_live_members']) {
        expect({ [name]: await both.pg(table(name)) }).toEqual({ [name]: both.sqlite(table(name)) });
      }
    } finally {
      await client.end();
      sqlite.$client.close();
    }
  }, 60_000);

  it('deleting a unit an accepted transfer came from, into the unit above it, leaves the report figures right', async () => {
    const { sqlite, client, both } = await engines(cluster(), 'transfer_from');
    try {
      const steps = (t: string) => [
        `INSERT INTO organizations (id, name, code, type, parent_id, path, created_at, updated_at) VALUES
          (1, 'R', 'r', 'doan_truong', NULL, '/1/', 0, 0), (2, 'F', 'f', 'doan_co_so', 1, '/1/2/', 0, 0), (3, 'C', 'c', 'chi_doan', 2, '/1/2/3/', 0, 0)`,
        `INSERT INTO users (id, code, family_name, given_name, email, created_at, updated_at) VALUES (1, 'U1', 'Lê', 'Chi', 'u1@x', 0, 0)`,
        `INSERT INTO organization_members (id, organization_id, user_id, is_active, joined_at) VALUES (1, 2, 1, ${t}, 1735689600000)`,
        `INSERT INTO transfers (id, user_id, from_organization_id, to_organization_id, reason, effective_date, status, created_at, updated_at)
          VALUES (1, 1, 3, 2, 'r', '2025-01-01', 'ACCEPTED', 0, 0)`,
        'DELETE FROM organizations WHERE id = 3',
      ];
      for (const [a, b] of steps('1').map((s, i) => [s, steps('true')[i]])) {
        sqlite.$client.exec(a);
        await client.query(b);
      }
      await expectReportsRecounted(both, 'after the delete');
      expect(both.sqlite('SELECT organization_id, transfer_in, n FROM report_member_cells WHERE n <> 0 ORDER BY 1')).toEqual([
        [1, 0, 1],
        [2, 0, 1],
      ]);
    } finally {
      await client.end();
      sqlite.$client.close();
    }
  }, 30_000);

  it('two transactions adding one member to two units at once count them once above both', async () => {
    const { sqlite, client, both } = await engines(cluster(), 'concurrent');
    const second = new pg.Client({ connectionString: cluster().url('concurrent') });
    await second.connect();
    try {
      await client.query(`INSERT INTO organizations (id, name, code, type, parent_id, path, created_at, updated_at) VALUES
        (1, 'R', 'r', 'doan_truong', NULL, '/1/', 0, 0), (2, 'F', 'f', 'doan_co_so', 1, '/1/2/', 0, 0),
        (3, 'A', 'a', 'chi_doan', 2, '/1/2/3/', 0, 0), (4, 'B', 'b', 'chi_doan', 2, '/1/2/4/', 0, 0)`);
      await client.query(
        `INSERT INTO users (id, code, family_name, given_name, email, created_at, updated_at) VALUES (1, 'U1', 'Lê', 'Chi', 'u1@x', 0, 0)`,
      );
      await client.query('BEGIN');
      await second.query('BEGIN');
      await client.query('INSERT INTO organization_members (id, organization_id, user_id, joined_at) VALUES (1, 3, 1, 1735689600000)');
      // Joined on another day (another report cell), so nothing but the member lock makes the second wait
      // before its figures read what the first has not committed.
      let done = false;
      const waiting = second
        .query('INSERT INTO organization_members (id, organization_id, user_id, joined_at) VALUES (2, 4, 1, 1735776000000)')
        .then(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The second waits for the first's member lock instead of counting from what it cannot see yet.
      expect(done).toBe(false);
      await client.query('COMMIT');
      await waiting;
      await second.query('COMMIT');
      expect(await both.pg('SELECT organization_id, direct, subtree FROM organization_member_counts ORDER BY 1')).toEqual([
        [1, 0, 1],
        [2, 0, 1],
        [3, 1, 1],
        [4, 1, 1],
      ]);
      expect(await both.pg(FIGURED.subtree)).toEqual(await both.pg(RECOUNTS.subtree));
      expect(await both.pg(FIGURED.cells)).toEqual(await both.pg(RECOUNTS.cells));
      expect(
        await both.pg(
          'SELECT organization_id, members FROM member_figures WHERE term_start = 0 AND organization_id IN (0, 1, 2) ORDER BY 1',
        ),
      ).toEqual([
        [0, 1],
        [1, 1],
        [2, 1],
      ]);
    } finally {
      await second.end();
      await client.end();
      sqlite.$client.close();
    }
  }, 30_000);
});
