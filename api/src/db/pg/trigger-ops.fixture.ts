/**
 * A seeded random sequence of raw writes for the trigger consistency test (triggers.test.ts): a unit tree,
 * users, memberships added, upserted, ended several at a time (with a day and a reason, or switched off
 * without one), moved and deleted, users changed (member record too) and deleted, unit types changed,
 * units added beneath a unit and deleted again, transfers accepted, refused, re-pointed and deleted,
 * campaigns with fees and orders. The same SQL text runs on both engines; only booleans are spelled per
 * engine. Ids are given, so both number rows alike.
 */
import { seeded } from '../../test/search-data';

const TYPES = ['doan_truong', 'doan_co_so', 'chi_doan', 'hoi_sinh_vien_truong', 'lien_chi_hoi', 'chi_hoi', 'clb_truong', 'clb_khoa'];
const STATUSES = ['none', 'doan_vien', 'hoi_vien', 'both'];
const FEE_STATUSES = ['PENDING', 'PAID', 'OVERDUE', 'EXEMPTED'];
const END_REASONS = ["'graduated'", "'transferred'", "'other'", 'NULL'];
const ETHNICITIES = ["'Kinh'", "'Tày'", 'NULL'];
/** Units of the starting tree; campaigns and later units hang only on them, so later units can go again. */
const TREE = 14;
const DAY = 86_400_000;
const START = Date.UTC(2025, 0, 1);

export type Dialect = 'sqlite' | 'pg';
/** `check`: the report figures are compared right after it (a later write of the same members would hide a missed refresh). */
export type Op = ((d: Dialect) => string) & { check?: boolean };
const checked = (op: (d: Dialect) => string): Op => Object.assign(op, { check: true });

const bool = (d: Dialect, v: boolean) => (d === 'pg' ? String(v) : v ? '1' : '0');

export function randomOps(seed: number, steps: number): Op[] {
  const r = seeded(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: T[]): T => xs[int(xs.length)];
  const ops: Op[] = [];
  const orgs: { id: number; path: string; parent: number | null }[] = [];
  const users: number[] = [];
  const members = new Map<string, { id: number; active: boolean }>();
  const campaigns: number[] = [];
  const fees: { id: number; campaign: number; user: number }[] = [];
  const orders: { id: number; fee: { id: number; campaign: number; user: number } }[] = [];
  const transfers: { id: number; user: number }[] = [];
  let memberId = 0;
  let orderId = 0;
  let transferId = 0;
  let orgId = 0;

  const addOrg = (under?: (typeof orgs)[number]) => {
    const id = ++orgId;
    const parent = under ?? (orgs.length === 0 || r() < 0.1 ? null : pick(orgs.slice(0, TREE)));
    const path = `${parent?.path ?? '/'}${id}/`;
    orgs.push({ id, path, parent: parent?.id ?? null });
    const type = pick(TYPES);
    ops.push(
      checked(
        () => `INSERT INTO organizations (id, name, code, type, parent_id, path, created_at, updated_at)
        VALUES (${id}, 'Unit ${id}', 'u${id}', '${type}', ${parent?.id ?? 'NULL'}, '${path}', 0, 0)`,
      ),
    );
  };
  const addUser = () => {
    const id = users.length ? Math.max(...users) + 1 : 1;
    users.push(id);
    const [type, status, active, gender] = [r() < 0.8 ? 'student' : 'staff', pick(STATUSES), r() < 0.9, r() < 0.5 ? "'female'" : 'NULL'];
    const ethnicity = pick(ETHNICITIES);
    ops.push(
      (
        d,
      ) => `INSERT INTO users (id, code, family_name, given_name, email, user_type, membership_status, is_active, gender, ethnicity, created_at, updated_at)
        VALUES (${id}, 'U${id}', 'Nguyễn', 'An', 'u${id}@x', '${type}', '${status}', ${bool(d, active)}, ${gender}, ${ethnicity}, 0, 0)`,
    );
  };
  const joined = () => START + int(500) * DAY + int(DAY);
  const key = (org: number, user: number) => `${org}:${user}`;
  const userMembers = (user: number) => [...members.entries()].filter(([k]) => k.endsWith(`:${user}`));

  for (let i = 0; i < TREE; i++) addOrg();
  for (let i = 0; i < 25; i++) addUser();
  for (let step = 0; step < steps; step++) {
    const roll = r();
    const user = pick(users);
    if (roll < 0.22) {
      // Several memberships at once, some of them reactivations (an import's upsert).
      const pairs = [...new Set(Array.from({ length: 1 + int(3) }, () => pick(orgs).id))].map((org) => ({
        org,
        user: r() < 0.6 ? user : pick(users),
      }));
      const unique = [...new Map(pairs.map((p) => [key(p.org, p.user), p])).values()];
      const values: string[] = [];
      for (const p of unique) {
        const m = members.get(key(p.org, p.user));
        if (m) m.active = true;
        else members.set(key(p.org, p.user), { id: ++memberId, active: true });
        values.push(`(${members.get(key(p.org, p.user))!.id}, ${p.org}, ${p.user}, ${joined()})`);
      }
      ops.push(
        (d) => `INSERT INTO organization_members (id, organization_id, user_id, joined_at) VALUES ${values.join(', ')}
          ON CONFLICT (organization_id, user_id) DO UPDATE SET is_active = ${bool(d, true)}, ended_at = NULL, end_reason = NULL
          WHERE organization_members.is_active = ${bool(d, false)}`,
      );
    } else if (roll < 0.34) {
      // Ending several of one user's memberships in one statement.
      const active = userMembers(user).filter(([, m]) => m.active);
      if (!active.length) continue;
      const ids = active.filter(() => r() < 0.7).map(([, m]) => m);
      if (!ids.length) continue;
      for (const m of ids) m.active = false;
      // Mostly with a day and a reason; sometimes switched off without one (the report leaves such rows out).
      const ended = r() < 0.85 ? joined() + 200 * DAY : 'NULL';
      const reason = pick(END_REASONS);
      ops.push(
        (d) => `UPDATE organization_members SET is_active = ${bool(d, false)}, ended_at = ${ended}, end_reason = ${reason}
          WHERE id IN (${ids.map((m) => m.id).join(', ')})`,
      );
    } else if (roll < 0.42) {
      // Moving a membership to another unit.
      const mine = userMembers(user);
      if (!mine.length) continue;
      const [k, m] = pick(mine);
      const to = pick(orgs).id;
      if (members.has(key(to, user))) continue;
      members.delete(k);
      members.set(key(to, user), m);
      const at = joined();
      ops.push(() => `UPDATE organization_members SET organization_id = ${to}, joined_at = ${at} WHERE id = ${m.id}`);
    } else if (roll < 0.5) {
      const mine = userMembers(user);
      if (!mine.length) continue;
      const gone = mine.filter(() => r() < 0.6);
      for (const [k] of gone) members.delete(k);
      if (gone.length) ops.push(() => `DELETE FROM organization_members WHERE id IN (${gone.map(([, m]) => m.id).join(', ')})`);
    } else if (roll < 0.6) {
      const [type, status, active] = [r() < 0.5 ? 'student' : 'staff', pick(STATUSES), r() < 0.8];
      const record = r() < 0.4 ? `, gender = ${r() < 0.5 ? "'female'" : "'male'"}, ethnicity = ${pick(ETHNICITIES)}` : '';
      ops.push(
        (d) =>
          `UPDATE users SET user_type = '${type}', membership_status = '${status}', is_active = ${bool(d, active)}${record} WHERE id = ${user}`,
      );
    } else if (roll < 0.63 && users.length > 10) {
      users.splice(users.indexOf(user), 1);
      for (const [k] of userMembers(user)) members.delete(k);
      fees.splice(0, fees.length, ...fees.filter((f) => f.user !== user));
      orders.splice(0, orders.length, ...orders.filter((o) => o.fee.user !== user));
      ops.push(() => `DELETE FROM users WHERE id = ${user}`);
    } else if (roll < 0.66) {
      addUser();
    } else if (roll < 0.69) {
      const [type, org] = [pick(TYPES), pick(orgs).id];
      ops.push(() => `UPDATE organizations SET type = '${type}' WHERE id = ${org}`);
    } else if (roll < 0.71) {
      // A unit gains a unit beneath it (its members leave the report cells) or a later unit goes again, its members with it.
      const later = orgs.slice(TREE);
      const held = orgs.slice(0, TREE).filter((o) => [...members.keys()].some((k) => k.startsWith(`${o.id}:`)));
      if (later.length < 3 && r() < 0.6) addOrg(held.length ? pick(held) : undefined);
      else if (later.length) {
        const gone = pick(later);
        orgs.splice(orgs.indexOf(gone), 1);
        for (const [k] of [...members.entries()].filter(([k]) => k.startsWith(`${gone.id}:`))) members.delete(k);
        ops.push(checked(() => `DELETE FROM organizations WHERE id = ${gone.id}`));
      }
    } else if (roll < 0.73) {
      // Transfers into a unit: accepted ones mark the membership there; refused, re-pointed and deleted ones.
      // Mostly into a unit the member is in, where the mark shows.
      const into = (who: number) => {
        const mine = userMembers(who);
        return mine.length && r() < 0.8 ? Number(pick(mine)[0].split(':')[0]) : pick(orgs).id;
      };
      if (transfers.length && r() < 0.5) {
        const t = pick(transfers);
        if (r() < 0.4) {
          transfers.splice(transfers.indexOf(t), 1);
          ops.push(checked(() => `DELETE FROM transfers WHERE id = ${t.id}`));
        } else {
          const [status, to] = [r() < 0.5 ? 'ACCEPTED' : 'REFUSED', r() < 0.5 ? into(t.user) : 0];
          const target = to ? `, to_organization_id = ${to}` : '';
          ops.push(checked(() => `UPDATE transfers SET status = '${status}'${target} WHERE id = ${t.id}`));
        }
      } else {
        const t = { id: ++transferId, user };
        transfers.push(t);
        const [status, to, from] = [r() < 0.7 ? 'ACCEPTED' : 'REFUSED', into(user), pick(orgs).id];
        ops.push(
          checked(
            () => `INSERT INTO transfers (id, user_id, from_organization_id, to_organization_id, reason, effective_date, status, created_at, updated_at)
            VALUES (${t.id}, ${user}, ${from}, ${to}, 'r', '2025-01-01', '${status}', 0, 0)`,
          ),
        );
      }
    } else if (roll < 0.75 || campaigns.length === 0) {
      const id = campaigns.length + 1;
      campaigns.push(id);
      const org = pick(orgs.slice(0, TREE)).id;
      ops.push(
        () =>
          `INSERT INTO payment_campaigns (id, organization_id, name, start_date, end_date, created_at, updated_at) VALUES (${id}, ${org}, 'C${id}', 0, 1, 0, 0)`,
        () =>
          `INSERT INTO fee_levels (id, campaign_id, level_name, amount, created_at, updated_at) VALUES (${id}, ${id}, 'L', 24000, 0, 0)`,
      );
    } else if (roll < 0.82) {
      const campaign = pick(campaigns);
      if (fees.some((f) => f.campaign === campaign && f.user === user)) continue;
      const fee = { id: fees.length ? Math.max(...fees.map((f) => f.id)) + 1 : 1, campaign, user };
      fees.push(fee);
      const [status, amount, paid, test] = [pick(FEE_STATUSES), 12000 * (1 + int(3)), r() < 0.5 ? int(40000) : null, r() < 0.1];
      ops.push(
        (
          d,
        ) => `INSERT INTO payment_assignments (id, campaign_id, user_id, fee_level_id, status, amount, paid_amount, is_test_payment, created_at, updated_at)
          VALUES (${fee.id}, ${campaign}, ${user}, ${campaign}, '${status}', ${amount}, ${paid ?? 'NULL'}, ${bool(d, test)}, 0, 0)`,
      );
    } else if (roll < 0.88 && fees.length) {
      const [fee, status, paid] = [pick(fees), pick(FEE_STATUSES), int(50000)];
      ops.push(() => `UPDATE payment_assignments SET status = '${status}', paid_amount = ${paid} WHERE id = ${fee.id}`);
    } else if (roll < 0.95 && fees.length) {
      const fee = pick(fees);
      const id = ++orderId;
      orders.push({ id, fee });
      const [received, test, attention, at] = [int(3) * 12000, r() < 0.1, r() < 0.2 ? "'REFUND_DUE'" : 'NULL', joined()];
      ops.push(
        (
          d,
        ) => `INSERT INTO payment_orders (id, order_code, assignment_id, campaign_id, user_id, amount, description, status, paid_at, is_test, received_amount, attention, attention_amount, created_at, updated_at)
          VALUES (${id}, ${id}, ${fee.id}, ${fee.campaign}, ${fee.user}, 24000, 'd', 'PAID', ${at}, ${bool(d, test)}, ${received}, ${attention}, 5000, 0, 0)`,
      );
    } else if (orders.length) {
      const order = pick(orders);
      if (r() < 0.5) {
        orders.splice(orders.indexOf(order), 1);
        ops.push(() => `DELETE FROM payment_orders WHERE id = ${order.id}`);
      } else {
        const [received, at] = [int(40000), joined()];
        ops.push(
          () => `UPDATE payment_orders SET received_amount = ${received}, paid_at = ${at}, resolution = 'ACCEPTED' WHERE id = ${order.id}`,
        );
      }
    }
  }
  return ops;
}
