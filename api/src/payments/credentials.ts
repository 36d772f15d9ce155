/** A campaign's stored payOS configuration and its decrypted credentials (links, orders, sync and webhooks read them). */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { payosConfigs } from '../db/tables/payments';
import type { Env } from '../env';
import type { PayosCredentials } from '../payos/client';
import { decryptSecret } from '../payos/crypto';
import { firstRow } from '../db/engine';

type ConfigRow = typeof payosConfigs.$inferSelect;

export async function configRow(db: Pick<Db, 'select'>, campaignId: number): Promise<ConfigRow | null> {
  return (await firstRow(db.select().from(payosConfigs).where(eq(payosConfigs.campaignId, campaignId)))) ?? null;
}

/** Decrypted credentials of a campaign (whether or not the config is active), or null. */
export async function campaignCredentials(
  db: Db,
  env: Env,
  campaignId: number,
): Promise<(PayosCredentials & { isActive: boolean; descriptionMaxLength: number }) | null> {
  const row = await configRow(db, campaignId);
  if (!row) return null;
  return {
    clientId: row.clientId,
    apiKey: decryptSecret(row.apiKeyEnc, env.appSecret),
    checksumKey: decryptSecret(row.checksumKeyEnc, env.appSecret),
    isActive: row.isActive,
    descriptionMaxLength: row.descriptionMaxLength,
  };
}
