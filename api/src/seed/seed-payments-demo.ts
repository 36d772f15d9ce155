/**
 * Demo payments: an ACTIVE fee campaign of the faculty union DCS-CNTT (or the root DTBK) with two
 * fee levels, members assigned (member@doanhoi.local among them, still to pay), a few already
 * paid in cash, a DRAFT campaign to try activation on, and in sandbox mode a payOS config so a
 * member can pay end to end on a fresh start. Runs only while no campaign exists.
 */
import { randomBytes } from 'node:crypto';
import { normalizeText } from '@doanhoi/shared';
import { and, asc, eq, like, sql } from 'drizzle-orm';
import type { Env } from '../env';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { encryptSecret } from '../payos/crypto';
import { feeLevels, paymentAssignments, paymentCampaigns, paymentOrders, payosConfigs } from '../db/tables/payments';
import { users } from '../db/tables/users';
import type { Db } from '../db/client';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { forEachInOrder } from '../lib/in-order';

const DAY = 86_400_000;
const VN = 7 * 3600_000;
const MEMBER_EMAIL = 'member@doanhoi.local';
const OFFICER_EMAIL = 'canbo.cntt@doanhoi.local';

/** Midnight (Vietnam time) `days` from today. */
function vnMidnight(days: number): Date {
  const now = Date.now() + VN;
  return new Date(now - (now % DAY) + days * DAY - VN);
}

export async function seedPaymentsDemo(db: Db, env: Env): Promise<boolean> {
  if ((await firstRow(db.select({ n: sql<number>`count(*)` }).from(paymentCampaigns)))!.n > 0) return false;
  const org =
    (await firstRow(
      db
        .select()
        .from(organizations)
        .where(and(eq(organizations.type, 'doan_co_so'), eq(organizations.code, 'DCS-CNTT'))),
    )) ??
    (await firstRow(
      db
        .select()
        .from(organizations)
        .where(and(eq(organizations.type, 'doan_truong'), eq(organizations.code, 'DTBK'))),
    ));
  if (!org) return false;
  const officer = await firstRow(db.select({ id: users.id }).from(users).where(eq(users.email, OFFICER_EMAIL)));
  const member = await firstRow(db.select({ id: users.id }).from(users).where(eq(users.email, MEMBER_EMAIL)));
  const others = (
    await allRows(
      db
        .selectDistinct({ id: organizationMembers.userId })
        .from(organizationMembers)
        .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
        .innerJoin(users, eq(users.id, organizationMembers.userId))
        .where(and(eq(organizationMembers.isActive, true), like(organizations.path, `${org.path}%`), eq(users.userType, 'student')))
        .orderBy(asc(organizationMembers.userId))
        .limit(30),
    )
  )
    .map((r) => r.id)
    .filter((id) => id !== member?.id && id !== officer?.id)
    .slice(0, 24);
  const memberIds = member ? [member.id, ...others] : others;
  if (memberIds.length === 0) return false;
  const createdBy = officer?.id ?? null;

  await withTransaction(db, async (tx) => {
    const name = 'Đoàn phí năm học 2025–2026';
    const description = 'Thu đoàn phí năm học của đoàn viên Khoa Công nghệ Thông tin';
    const campaign = await firstRow(
      tx
        .insert(paymentCampaigns)
        .values({
          organizationId: org.id,
          name,
          description,
          startDate: vnMidnight(-30),
          endDate: new Date(vnMidnight(61).getTime() - 60_000),
          status: 'ACTIVE',
          createdBy,
          searchText: normalizeText(`${name} ${description}`),
        })
        .returning(),
    );
    const standard = await firstRow(
      tx
        .insert(feeLevels)
        .values({
          campaignId: campaign.id,
          levelName: 'Mức chuẩn',
          amount: 60_000,
          description: 'Đoàn viên sinh viên',
          orderIndex: 0,
          isDefault: true,
        })
        .returning(),
    );
    const reduced = await firstRow(
      tx
        .insert(feeLevels)
        .values({
          campaignId: campaign.id,
          levelName: 'Mức hỗ trợ',
          amount: 30_000,
          description: 'Sinh viên thuộc diện khó khăn',
          note: 'Cần xác nhận của lớp',
          orderIndex: 1,
        })
        .returning(),
    );
    const paidAt = new Date(Date.now() - 3 * DAY);
    await forEachInOrder(memberIds, async (userId, i) => {
      const level = i > 0 && i % 5 === 0 ? reduced : standard;
      // The demo member still has to pay; every third of the others has paid in cash.
      const paid = i > 0 && i % 3 === 0;
      const a = await firstRow(
        tx
          .insert(paymentAssignments)
          .values({
            campaignId: campaign.id,
            userId,
            feeLevelId: level.id,
            amount: level.amount,
            status: paid ? 'PAID' : 'PENDING',
            dueDate: campaign.endDate,
            assignedBy: createdBy,
            ...(paid ? { paidAt, paidAmount: level.amount, paymentMethod: 'MANUAL' as const } : {}),
          })
          .returning(),
      );
      if (paid) {
        await runQuery(
          tx.insert(paymentOrders).values({
            orderCode: paidAt.getTime() * 100 + i,
            assignmentId: a.id,
            campaignId: campaign.id,
            userId,
            amount: level.amount,
            receivedAmount: level.amount,
            description: `Thu tiền mặt: ${name}`,
            status: 'PAID',
            paymentMethod: 'MANUAL',
            manualMethod: 'cash',
            note: 'Thu tại văn phòng Đoàn khoa',
            recordedBy: createdBy,
            paidAt,
          }),
        );
      }
    });
    const sandbox = !env.PAYOS_BASE_URL.trim() || env.PAYOS_BASE_URL.trim() === 'sandbox';
    if (sandbox) {
      await runQuery(
        tx.insert(payosConfigs).values({
          campaignId: campaign.id,
          organizationId: org.id,
          clientId: 'sandbox-demo-client',
          apiKeyEnc: encryptSecret(randomBytes(16).toString('hex'), env.appSecret),
          checksumKeyEnc: encryptSecret(randomBytes(32).toString('hex'), env.appSecret),
          isActive: true,
        }),
      );
    }

    const draftName = 'Quỹ Mùa hè xanh 2026';
    const draft = await firstRow(
      tx
        .insert(paymentCampaigns)
        .values({
          organizationId: org.id,
          name: draftName,
          description: 'Đóng góp cho chiến dịch tình nguyện hè (chưa phân công thành viên)',
          startDate: vnMidnight(30),
          endDate: new Date(vnMidnight(91).getTime() - 60_000),
          status: 'DRAFT',
          createdBy,
          searchText: normalizeText(draftName),
        })
        .returning(),
    );
    await runQuery(
      tx.insert(feeLevels).values({ campaignId: draft.id, levelName: 'Mức đóng góp', amount: 50_000, orderIndex: 0, isDefault: true }),
    );
  });
  return true;
}
