import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { feeLevels, paymentCampaigns } from '../db/tables/payments';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { auditLogs } from '../db/tables/audit';
import { firstRow } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

/** Migration 0009 fills organization_id of rows written before the column, by the rules of organization.ts. */
const BACKFILL = readFileSync(resolve(__dirname, '../../drizzle/0009_audit_organization_backfill.sql'), 'utf8');

let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp();
});

// Both run SQLite migrations' own SQL on SQLite (PostgreSQL's schema starts with those columns filled: drizzle-pg 0000).
describe.skipIf(TEST_ENGINE === 'pg')('audit organization backfill', () => {
  it('derives the organization of old rows from their entity, a deleted organization from its parent, and leaves user rows empty', async () => {
    const faculty = await t.createOrg('doan_co_so', 'BF-F1');
    const chiDoan = await t.createOrg('chi_doan', 'BF-C1', faculty);
    const campaign = (
      await firstRow(
        t.db
          .insert(paymentCampaigns)
          .values({ organizationId: chiDoan, name: 'Đoàn phí', startDate: new Date(), endDate: new Date() })
          .returning(),
      )
    ).id;
    const level = (await firstRow(t.db.insert(feeLevels).values({ campaignId: campaign, levelName: 'Chuẩn', amount: 50_000 }).returning()))
      .id;
    const old = async (entity: string, entityId: number, before: unknown = null) =>
      (
        await firstRow(
          t.db
            .insert(auditLogs)
            .values({
              action: `${entity}.old`,
              entity,
              entityId: String(entityId),
              before: before == null ? null : JSON.stringify(before),
              organizationId: null,
            })
            .returning(),
        )
      ).id;
    const rows = {
      org: await old('organization', chiDoan),
      deleted: await old('organization', 999_001, { id: 999_001, parentId: faculty }),
      campaign: await old('payment_campaign', campaign),
      level: await old('fee_level', level),
      user: await old('user', 1),
    };
    t.db.$client.exec(BACKFILL);
    const orgOf = async (id: number) =>
      (await firstRow(t.db.select({ o: auditLogs.organizationId }).from(auditLogs).where(eq(auditLogs.id, id))))!.o;
    expect(Object.fromEntries(await mapInOrder(Object.entries(rows), async ([k, id]) => [k, await orgOf(id)]))).toEqual({
      org: chiDoan,
      deleted: faculty,
      campaign: chiDoan,
      level: chiDoan,
      user: null,
    });
  });
});

/** Migration 0030 names rows written before audit_logs.labels after the records they name, where those still exist. */
const LABELS = readFileSync(resolve(__dirname, '../../drizzle/0030_audit_labels_backfill.sql'), 'utf8');

describe.skipIf(TEST_ENGINE === 'pg')('audit labels backfill', () => {
  it('names the actor, the record and the organization of old rows, and leaves out what is gone', async () => {
    const faculty = await t.createOrg('doan_co_so', 'BL-F1', null, 'Đoàn khoa Cũ');
    const old = async (entity: string, entityId: number, organizationId: number | null = null) =>
      (
        await firstRow(
          t.db
            .insert(auditLogs)
            .values({ action: `${entity}.old`, entity, entityId: String(entityId), actorId: t.admin.user.id, organizationId })
            .returning(),
        )
      ).id;
    const rows = { org: await old('organization', faculty, faculty), gone: await old('organization', 999_002) };
    t.db.$client.exec(LABELS);
    const labelsOf = async (id: number) =>
      JSON.parse((await firstRow(t.db.select({ l: auditLogs.labels }).from(auditLogs).where(eq(auditLogs.id, id))))!.l!);
    expect(await labelsOf(rows.org)).toEqual({ actor: expect.any(String), target: 'Đoàn khoa Cũ', organization: 'Đoàn khoa Cũ' });
    expect(await labelsOf(rows.gone)).toEqual({ actor: expect.any(String) });
  });
});
