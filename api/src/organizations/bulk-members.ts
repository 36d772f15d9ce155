/**
 * Many new users' memberships at once (a users import): the per-row triggers that keep the member
 * counts, Đoàn/Hội facets, term figures and search queue cost ≈ 90 µs a membership (2.6 s of a
 * 10,000-user import). Inside the caller's transaction this pauses them (a trigger_pauses row,
 * migration 0025), inserts the memberships, applies the same figures in six set-wise statements and
 * lifts the pause, so no other connection ever sees the pause or a half-updated figure.
 *
 * Only for users with no membership and no payment assignment yet (users the transaction has just
 * created): each of them then counts once in every organization above their memberships, which is
 * what the triggers compute one row at a time, and no campaign figure moves. Anyone else goes
 * through the triggers (returns false). bulk-members.test.ts compares both ways on random batches.
 *
 * PostgreSQL's figures are kept per statement by figures.sync_members (drizzle-pg 0003) and the report
 * cells by figures.sync_reports (0005), which the paused insert calls (figures.sync_new_members, 0011)
 * once for the batch — or, inside withDeferredFigures, once for every batch of the transaction: the
 * same rules, not rewritten here.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { onPg } from '../db/dialect';
import { triggerPauses } from '../db/tables/organizations';
import { currentTransaction, runQuery, sqlGet, sqlRun } from '../db/engine';

type Pair = { organizationId: number; userId: number };

const PAUSE = 'new_members';

/**
 * Adds the pairs as active 'member' memberships with the figures the triggers would keep; false
 * (nothing written) when a user already has a membership or an assignment.
 */
export async function addNewUsersMemberships(tx: Tx, pairs: Pair[]): Promise<boolean> {
  if (pairs.length === 0) return true;
  if (onPg()) return await onPostgres(tx, pairs);
  const ids = JSON.stringify([...new Set(pairs.map((p) => p.userId))]);
  const inBatch = (column: SQL) => sql`${column} IN (SELECT value FROM json_each(${ids}))`;
  const known = await sqlGet<{ n: number }>(
    tx,
    sql`SELECT (SELECT count(*) FROM organization_members WHERE ${inBatch(sql`user_id`)}) + (SELECT count(*) FROM payment_assignments WHERE ${inBatch(sql`user_id`)}) AS n`,
  );
  if (known!.n > 0) return false;

  await runQuery(tx.insert(triggerPauses).values({ name: PAUSE }));
  // One statement for the batch, the pairs bound as one JSON parameter (a multi-row VALUES was rebuilt per row).
  const rows = JSON.stringify(pairs.map((p) => [p.organizationId, p.userId]));
  await sqlRun(
    tx,
    sql`INSERT INTO organization_members (organization_id, user_id, role, is_active, joined_at)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), 'member', 1, ${Date.now()} FROM json_each(${rows})`,
  );

  // Each user of the batch once per organization at or above one of their memberships, with the term
  // they joined it in: worked out once into a temporary table that the four figure statements read
  // (as a CTE it was recomputed by each, 0.8 s of a 10k import), the term once per membership rather
  // than per ancestor. Plain text around the one parameter: drizzle's building of a long fragment
  // cost more than running it.
  await sqlRun(tx, sql`CREATE TEMP TABLE IF NOT EXISTS bulk_du (user_id INTEGER NOT NULL, org INTEGER NOT NULL, term INTEGER NOT NULL)`);
  await sqlRun(tx, sql`DELETE FROM temp.bulk_du`);
  await sqlRun(
    tx,
    sql`WITH m AS MATERIALIZED (SELECT user_id, organization_id, joined_term AS term
      FROM organization_members WHERE user_id IN (SELECT value FROM json_each(${ids})) AND is_active = 1)
    INSERT INTO temp.bulk_du (user_id, org, term) SELECT DISTINCT m.user_id, CAST(j.value AS INTEGER), m.term
    FROM m JOIN organizations o ON o.id = m.organization_id, json_each('[' || replace(trim(o.path, '/'), '/', ',') || ']') j`,
  );
  const closure = sql`du AS (SELECT user_id, org, term FROM temp.bulk_du)`;
  await sqlRun(
    tx,
    sql`WITH ${closure} INSERT INTO organization_member_counts (organization_id)
    SELECT DISTINCT org FROM du WHERE NOT EXISTS (SELECT 1 FROM organization_member_counts c WHERE c.organization_id = du.org)`,
  );
  await sqlRun(
    tx,
    sql`WITH d AS (SELECT organization_id AS org, count(*) AS n FROM organization_members WHERE ${inBatch(sql`user_id`)} AND is_active = 1 GROUP BY organization_id)
    UPDATE organization_member_counts SET direct = direct + d.n FROM d WHERE d.org = organization_member_counts.organization_id`,
  );
  await sqlRun(
    tx,
    sql`WITH ${closure}, s AS (SELECT org, count(DISTINCT user_id) AS n FROM du GROUP BY org)
    UPDATE organization_member_counts SET subtree = subtree + s.n FROM s WHERE s.org = organization_member_counts.organization_id`,
  );
  await sqlRun(
    tx,
    sql`WITH ${closure}, uo AS (SELECT DISTINCT user_id, org FROM du)
    INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
    SELECT uo.org, u.user_type, u.membership_status, u.is_active, count(*) FROM uo JOIN users u ON u.id = uo.user_id WHERE 1
    GROUP BY uo.org, u.user_type, u.membership_status, u.is_active
    ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = n + excluded.n`,
  );
  // Term figures: organization 0 is everything; term 0 is all time, with the Đoàn/Hội split.
  await sqlRun(
    tx,
    sql`WITH ${closure}, all_du AS (SELECT user_id, org, term FROM du UNION ALL SELECT user_id, 0, term FROM du),
    f AS (SELECT a.org, 0 AS term, count(DISTINCT a.user_id) AS n,
        count(DISTINCT CASE WHEN u.membership_status IN ('doan_vien', 'both') THEN a.user_id END) AS doan,
        count(DISTINCT CASE WHEN u.membership_status IN ('hoi_vien', 'both') THEN a.user_id END) AS hoi
      FROM all_du a JOIN users u ON u.id = a.user_id GROUP BY a.org
      UNION ALL SELECT org, term, count(DISTINCT user_id), 0, 0 FROM all_du GROUP BY org, term)
    INSERT INTO member_figures (organization_id, term_start, members, doan, hoi) SELECT org, term, n, doan, hoi FROM f WHERE 1
    ON CONFLICT (organization_id, term_start) DO UPDATE SET members = members + excluded.members, doan = doan + excluded.doan, hoi = hoi + excluded.hoi`,
  );
  await sqlRun(tx, sql`DELETE FROM temp.bulk_du`);
  await sqlRun(
    tx,
    sql`INSERT INTO users_fts_pending (user_id) SELECT DISTINCT user_id FROM organization_members m
    WHERE ${inBatch(sql`m.user_id`)} AND NOT EXISTS (SELECT 1 FROM users_fts_pending p WHERE p.user_id = m.user_id)`,
  );
  await sqlRun(tx, sql`DELETE FROM trigger_pauses WHERE name = ${PAUSE}`);
  return true;
}

/** An int[] parameter: drizzle expands a JS array into a list of parameters, so it goes as an array literal. */
const intArray = (ns: number[]) => `{${ns.join(',')}}`;

async function onPostgres(tx: Tx, pairs: Pair[]): Promise<boolean> {
  const ids = intArray([...new Set(pairs.map((p) => p.userId))]);
  const known = await sqlGet<{ n: number }>(
    tx,
    sql`SELECT (SELECT count(*) FROM organization_members WHERE user_id = ANY(${ids}::int[]))
      + (SELECT count(*) FROM payment_assignments WHERE user_id = ANY(${ids}::int[])) AS n`,
  );
  if (known!.n > 0) return false;
  await runQuery(tx.insert(triggerPauses).values({ name: PAUSE }));
  await sqlRun(
    tx,
    sql`INSERT INTO organization_members (organization_id, user_id, role, is_active, joined_at)
    SELECT o, u, 'member', true, ${Date.now()} FROM unnest(${intArray(pairs.map((p) => p.organizationId))}::int[], ${intArray(pairs.map((p) => p.userId))}::int[]) AS p(o, u)`,
  );
  const later = deferredOf(tx);
  if (later) for (const p of pairs) later.members.add(p.userId);
  else await sqlRun(tx, sql`SELECT figures.sync_new_members(${ids}::int[])`);
  await sqlRun(tx, sql`DELETE FROM trigger_pauses WHERE name = ${PAUSE}`);
  return true;
}

/** The new members whose figures, and the new users whose index rows, wait for the end of withDeferredFigures. */
interface Deferred {
  members: Set<number>;
  indexed: Set<number>;
}

/**
 * Per transaction, not per `tx` object: on PostgreSQL every transaction of a process is run through
 * the same `db` (db/postgres.ts routes its statements), so two imports at once in one process kept
 * their sets apart only by luck.
 */
const deferred = new WeakMap<object, Deferred>();
const deferredOf = (tx: Tx) => deferred.get(currentTransaction() ?? tx);

/**
 * PostgreSQL: the users_index and member_scopes rows of new users inserted under the 'new_users' pause
 * (imports/kinds/user-writes.ts) — at the end of withDeferredFigures when inside it (true), after the
 * figures, as one statement; false when the caller is to index them now.
 */
export function deferIndex(tx: Tx, ids: number[]): boolean {
  const later = deferredOf(tx);
  if (!later) return false;
  for (const id of ids) later.indexed.add(id);
  return true;
}

const sortedArray = (ids: Set<number>) => intArray([...ids].sort((a, b) => a - b));

/**
 * Runs `write` (many batches of addNewUsersMemberships in the transaction `tx`, an import) with
 * PostgreSQL's figures of the new members brought up to date once at the end, for all of them, and
 * the new users indexed then: set-wise statements over 10,000 users cost a fraction of a hundred
 * batches' worth. Nothing outside the transaction sees the figures before they
 * are right; inside it, nothing reads them meanwhile (an import writes users, not figures, and each
 * user once: a file's duplicate rows are refused, so no trigger adjusts a new member's figures from
 * its type or status), and a membership of theirs written meanwhile through the triggers is counted
 * once (figures.sync_* compare with what they last counted). A batch rolled back to its savepoint
 * leaves ids of users that no longer exist: nothing to count or index. SQLite's batches keep their
 * own set-wise figures.
 */
export async function withDeferredFigures<T>(tx: Tx, write: () => Promise<T>): Promise<T> {
  const key = currentTransaction() ?? tx;
  if (!onPg() || deferred.has(key)) return await write();
  const later: Deferred = { members: new Set(), indexed: new Set() };
  deferred.set(key, later);
  try {
    const result = await write();
    if (later.members.size) await sqlRun(tx, sql`SELECT figures.sync_new_members(${sortedArray(later.members)}::int[])`);
    // After the figures: their scopes step then finds no index row to rewrite.
    if (later.indexed.size) await sqlRun(tx, sql`SELECT figures.index_new_users(${sortedArray(later.indexed)}::int[])`);
    return result;
  } finally {
    deferred.delete(key);
  }
}
