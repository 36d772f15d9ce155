/**
 * Issue 30 item 8: GET /reports/membership(/export). The figures equal a count made here over random
 * memberships (joined, left by reason, transferred between faculties); the total row is the sum of
 * the rows above it and a direct unit's row equals that unit's own report; reach follows
 * reports.view; bad input is 400.
 */
import { ETHNICITY_CODES, GENDERS, LEAVE_REASONS, type MembershipReport, type Movement, type ReportFigures } from '@doanhoi/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { download, readWorkbook, sheetRows } from '../imports/fixture';
import { audit } from '../audit/writer';
import { organizationMembers } from '../db/tables/organizations';
import { campaignFigures, paymentCampaigns } from '../db/tables/payments';
import { remittances } from '../db/tables/remittances';
import { makeTestApp, type TestApp } from '../test/harness';
import { transfers } from '../db/tables/transfers';
import { insertUser } from '../users/fixture';
import { firstRow, runQuery, withTransaction } from '../db/engine';

let t: TestApp;
const o: Record<string, number> = {};
const FROM = '2025-09-01';
const TO = '2026-01-31';
const day = (d: string) => new Date(`${d}T00:00:00+07:00`);
const fromMs = day(FROM).getTime();
const toMs = day(TO).getTime() + 86_400_000;

/** One member's stay in a leaf unit, as the test made it. */
interface Stay {
  bucket: string;
  joined: number;
  ended: number | null;
  reason: string | null;
  transferIn: boolean;
  gender: string | null;
  status: string;
}
const stays: Stay[] = [];

let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const someDay = () => new Date(Date.UTC(2024, 0, 1) + Math.floor(rand() * 800) * 86_400_000).toISOString().slice(0, 10);

/** The leaf unit and every unit above it, joined on `joined`, ended together (as leaving does). */
async function stayIn(userId: number, chain: number[], joined: string, ended: string | null, reason: string | null) {
  for (const organizationId of chain) {
    await runQuery(
      t.db
        .insert(organizationMembers)
        .values({
          organizationId,
          userId,
          joinedAt: day(joined),
          isActive: ended === null,
          endedAt: ended ? day(ended) : null,
          endReason: (reason as never) ?? null,
        })
        .onConflictDoNothing(),
    );
  }
}

beforeAll(async () => {
  t = await makeTestApp();
  o.R = await t.createOrg('doan_truong', 'RP-R', null, 'Đoàn trường RP');
  o.F1 = await t.createOrg('doan_co_so', 'RP-F1', o.R, 'Khoa A');
  o.F2 = await t.createOrg('doan_co_so', 'RP-F2', o.R, 'Khoa B');
  o.C11 = await t.createOrg('chi_doan', 'RP-C11', o.F1, 'Chi đoàn A1');
  o.C12 = await t.createOrg('chi_doan', 'RP-C12', o.F1, 'Chi đoàn A2');
  o.C21 = await t.createOrg('chi_doan', 'RP-C21', o.F2, 'Chi đoàn B1');
  const chains: Record<string, number[]> = {
    C11: [o.C11!, o.F1!, o.R!],
    C12: [o.C12!, o.F1!, o.R!],
    C21: [o.C21!, o.F2!, o.R!],
    R: [o.R!],
  };
  const bucketOf = (leaf: string) => (leaf === 'R' ? 'R' : leaf === 'C21' ? 'F2' : 'F1');
  for (let i = 0; i < 120; i++) {
    const gender = rand() < 0.15 ? null : pick(GENDERS);
    const status = pick(['none', 'doan_vien', 'hoi_vien', 'both'] as const);
    const userId = await insertUser(t, {
      code: `RP${i}`,
      gender,
      ethnicity: rand() < 0.2 ? null : pick(ETHNICITY_CODES.slice(0, 4)),
      membershipStatus: status,
      userType: rand() < 0.1 ? 'staff' : 'student',
    });
    const leaf = pick(['C11', 'C12', 'C21', 'R']);
    const joined = someDay();
    const ends = rand() < 0.35;
    const ended = ends
      ? new Date(day(joined).getTime() + Math.floor(rand() * 300 + 1) * 86_400_000 + 7 * 3600_000).toISOString().slice(0, 10)
      : null;
    const moves = ends && leaf === 'C11' && rand() < 0.5;
    const reason = ends ? (moves ? 'transferred' : pick(LEAVE_REASONS)) : null;
    await stayIn(userId, chains[leaf]!, joined, ended, reason);
    stays.push({
      bucket: bucketOf(leaf),
      joined: day(joined).getTime(),
      ended: ended ? day(ended).getTime() : null,
      reason,
      transferIn: false,
      gender,
      status,
    });
    if (moves) {
      // Accepted into another faculty's chi đoàn the same day; the school's row stays (it is in both chains).
      await runQuery(
        t.db.insert(transfers).values({
          userId,
          fromOrganizationId: o.C11!,
          toOrganizationId: o.C21!,
          reason: 'chuyển',
          effectiveDate: ended!,
          status: 'ACCEPTED',
        }),
      );
      for (const organizationId of [o.C21!, o.F2!])
        await runQuery(t.db.insert(organizationMembers).values({ organizationId, userId, joinedAt: day(ended!) }));
      stays.push({ bucket: 'F2', joined: day(ended!).getTime(), ended: null, reason: null, transferIn: true, gender, status });
    }
  }
  // A membership switched off without a day (before issue 30) is left out everywhere.
  const old = await insertUser(t, { code: 'RPOLD' });
  for (const organizationId of [o.C12!, o.F1!, o.R!])
    await runQuery(t.db.insert(organizationMembers).values({ organizationId, userId: old, joinedAt: day('2024-01-01'), isActive: false }));
});

/** The count made here, with the report's definitions. */
function expected(bucket: string | null, keep: (s: Stay) => boolean = () => true): Movement {
  const m: Movement = {
    start: 0,
    admitted: 0,
    transferredIn: 0,
    transferredOut: 0,
    left: 0,
    leftByReason: Object.fromEntries(LEAVE_REASONS.map((r) => [r, 0])) as Movement['leftByReason'],
    end: 0,
  };
  for (const s of stays) {
    if ((bucket && s.bucket !== bucket) || !keep(s)) continue;
    if (s.joined >= toMs || (s.ended !== null && s.ended < fromMs)) continue;
    if (s.joined < fromMs) m.start++;
    else if (s.transferIn) m.transferredIn++;
    else m.admitted++;
    if (s.ended !== null && s.ended < toMs) {
      if (s.reason === 'transferred') m.transferredOut++;
      else {
        m.left++;
        m.leftByReason[s.reason as (typeof LEAVE_REASONS)[number]]++;
      }
    } else m.end++;
  }
  return m;
}

const movement = (f: Movement): Movement => ({
  start: f.start,
  admitted: f.admitted,
  transferredIn: f.transferredIn,
  transferredOut: f.transferredOut,
  left: f.left,
  leftByReason: f.leftByReason,
  end: f.end,
});
const report = async (organizationId: number, token = t.adminToken, from = FROM, to = TO) =>
  t.request('GET', `/api/reports/membership?organizationId=${organizationId}&from=${from}&to=${to}`, { token });

describe('GET /reports/membership', () => {
  it('equals a direct count, per unit and per group, and start + movements = end', async () => {
    const res = await report(o.R!);
    expect(res.status).toBe(200);
    const body = res.body as MembershipReport;
    const [root, ...units] = body.units;
    expect(units.map((u) => u.code)).toEqual(['RP-F1', 'RP-F2']);
    expect(movement(root!.own)).toEqual(expected('R'));
    expect(movement(units[0]!.total)).toEqual(expected('F1'));
    expect(movement(units[1]!.total)).toEqual(expected('F2'));
    expect(movement(root!.total)).toEqual(expected(null));
    expect(movement(root!.total.groups.female)).toEqual(expected(null, (s) => s.gender === 'female'));
    expect(movement(root!.total.groups.unknownGender)).toEqual(expected(null, (s) => s.gender === null));
    expect(movement(root!.total.groups.doan)).toEqual(expected(null, (s) => s.status === 'doan_vien' || s.status === 'both'));
    const f = root!.total;
    expect(f.start + f.admitted + f.transferredIn - f.transferredOut - f.left).toBe(f.end);
    expect(f.transferredOut).toBeGreaterThan(0);
    expect(Object.values(f.ethnicities).reduce((s, e) => s + e.end, 0)).toBe(f.end);
  });

  it('totals add up the tree: the total row is the sum of the rows, and a unit’s row is its own report', async () => {
    const body = (await report(o.R!)).body as MembershipReport;
    const [root, ...units] = body.units;
    const sum = (pickN: (f: ReportFigures) => number) => pickN(root!.own) + units.reduce((s, u) => s + pickN(u.total), 0);
    for (const key of ['start', 'admitted', 'transferredIn', 'transferredOut', 'left', 'end'] as const)
      expect(root!.total[key]).toBe(sum((f) => f[key]));
    expect(root!.total.groups.hoi.end).toBe(sum((f) => f.groups.hoi.end));
    const f1 = (await report(o.F1!)).body as MembershipReport;
    expect(movement(f1.units[0]!.total)).toEqual(movement(units[0]!.total));
    expect(f1.units.map((u) => u.code)).toEqual(['RP-F1', 'RP-C11', 'RP-C12']);
    expect(f1.units[0]!.total.end).toBe(f1.units[0]!.own.end + f1.units[1]!.total.end + f1.units[2]!.total.end);
  });

  it('counts đoàn phí of the period’s campaigns by rule: collected = kept + owed up, kept adds up the tree', async () => {
    const c = (
      await firstRow(
        t.db
          .insert(paymentCampaigns)
          .values({
            organizationId: o.R!,
            name: 'Đoàn phí HK1',
            startDate: day('2025-09-01'),
            endDate: day('2026-01-31'),
            status: 'ACTIVE',
          })
          .returning(),
      )
    ).id;
    await withTransaction(t.db, async (tx) =>
      audit(tx, { actorId: null, action: 'dues.generate', entity: 'payment_campaign', entityId: c, ip: null }),
    );
    // Another campaign, not by the rule, is not đoàn phí.
    await runQuery(
      t.db
        .insert(paymentCampaigns)
        .values({ organizationId: o.R!, name: 'Quỹ lớp', startDate: day('2025-10-01'), endDate: day('2026-01-31'), status: 'ACTIVE' }),
    );
    const figures: [number, number][] = [
      [o.R!, 900_000],
      [o.F1!, 600_000],
      [o.F2!, 240_000],
      [o.C11!, 300_000],
      [o.C12!, 240_000],
      [o.C21!, 240_000],
    ];
    for (const [organizationId, collected] of figures)
      await runQuery(
        t.db
          .insert(campaignFigures)
          .values({ campaignId: c, organizationId, collected })
          .onConflictDoUpdate({ target: [campaignFigures.campaignId, campaignFigures.organizationId], set: { collected } }),
      );
    await runQuery(
      t.db.insert(remittances).values({
        campaignId: c,
        fromOrganizationId: o.F1!,
        toOrganizationId: o.R!,
        amount: 100_000,
        paidAt: day('2025-12-01'),
        status: 'CONFIRMED',
      }),
    );
    const body = (await report(o.R!)).body as MembershipReport;
    expect(body.campaigns.map((x) => x.name)).toEqual(['Đoàn phí HK1']);
    const [root, f1, f2] = body.units;
    expect(root!.total.dues.collected).toBe(900_000);
    expect(root!.own.dues.collected + f1!.total.dues.collected + f2!.total.dues.collected).toBe(900_000);
    expect(root!.total.dues.kept).toBe(root!.own.dues.kept + f1!.total.dues.kept + f2!.total.dues.kept);
    // The school keeps everything; each faculty's subtree keeps what it does not owe up.
    expect(root!.total.dues.kept).toBe(900_000);
    expect(f1!.total.dues.collected).toBe(f1!.total.dues.kept + f1!.total.dues.owedUp);
    expect(f1!.total.dues.remitted).toBe(100_000);
    // Chi đoàn keep 2/3 of 300k + 240k = 360k and owe 180k; the faculty keeps 2/3 of (60k own + 180k) = 160k.
    expect(f1!.total.dues.kept).toBe(360_000 + 160_000);
  });

  it('reaches as reports.view: a faculty admin sees its faculty only; a member nothing', async () => {
    const role = await t.createRole('rp-viewer', ['reports.view']);
    const faculty = await t.createUser('RPADM', [{ roleId: role, organizationId: o.F1! }]);
    expect((await report(o.F1!, faculty.token)).status).toBe(200);
    expect((await report(o.C11!, faculty.token)).status).toBe(200);
    expect((await report(o.R!, faculty.token)).status).toBe(403);
    expect((await report(o.F2!, faculty.token)).status).toBe(403);
    const member = await t.createUser('RPMEM');
    expect((await report(o.F1!, member.token)).status).toBe(403);
    expect((await t.request('GET', `/api/reports/membership?organizationId=${o.F1}&from=${FROM}&to=${TO}`)).status).toBe(401);
    expect(
      (await download(t, 'GET', `/api/reports/membership/export?organizationId=${o.R}&from=${FROM}&to=${TO}`, faculty.token)).status,
    ).toBe(403);
  });

  it('refuses bad input (400) and an unknown unit (404)', async () => {
    for (const q of [
      `organizationId=${o.R}&from=2026-02-01&to=2026-01-01`,
      `organizationId=${o.R}&from=2025-02-30&to=2026-01-01`,
      `organizationId=${o.R}&from=01/09/2025&to=2026-01-01`,
      `from=${FROM}&to=${TO}`,
      `organizationId=abc&from=${FROM}&to=${TO}`,
      `organizationId=${o.R}&from=2020-01-01&to=2026-01-01`,
      `organizationId=${o.R}&from=${FROM}`,
    ]) {
      const res = await t.request('GET', `/api/reports/membership?${q}`, { token: t.adminToken });
      expect({ q, status: res.status, message: typeof res.body.message }).toEqual({ q, status: 400, message: 'string' });
    }
    expect((await report(999_999)).status).toBe(404);
  });
});

describe('GET /reports/membership/export', () => {
  it('downloads the same rows as xlsx, the total row last before the ethnic groups', async () => {
    const json = (await report(o.R!)).body as MembershipReport;
    const res = await download(t, 'GET', `/api/reports/membership/export?organizationId=${o.R}&from=${FROM}&to=${TO}`, t.adminToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const rows = sheetRows((await readWorkbook(res.buf)).worksheets[0]!);
    const head = rows[0]!.map(String);
    const at = (label: RegExp) => rows.find((r) => label.test(String(r[1])))!;
    const end = head.indexOf('Cuối kỳ');
    expect(at(/^Khoa A$/)[end]).toBe(json.units[1]!.total.end);
    expect(at(/^Tổng cộng/)[end]).toBe(json.units[0]!.total.end);
    expect(at(/^Tổng cộng/)[head.indexOf('Đoàn phí đã thu')]).toBe(900_000);
  });
});
