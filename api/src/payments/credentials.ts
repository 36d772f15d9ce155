/** A campaign's stored payOS configuration and its decrypted credentials (links, orders, sync and webhooks read them). */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { payosConfigs } from '../db/tables/payments';
import type { Env } from '../env';
import type { PayosCredentials } from '../payos/client';
import { decryptSecret } from '../payos/crypto';

type ConfigRow = typeof payosConfigs.$inferSelect;

export function configRow(db: Pick<Db, 'select'>, campaignId: number): ConfigRow | null {
  return db.select().from(payosConfigs).where(eq(payosConfigs.campaignId, campaignId)).get() ?? null;
}

/** Decrypted credentials of a campaign (whether or not the config is active), or null. */
export function campaignCredentials(
  db: Db,
  env: Env,
  campaignId: number,
): (PayosCredentials & { isActive: boolean; descriptionMaxLength: number }) | null {
  const row = configRow(db, campaignId);
  if (!row) return null;
  return {
    clientId: row.clientId,
    apiKey: decryptSecret(row.apiKeyEnc, env.appSecret),
    checksumKey: decryptSecret(row.checksumKeyEnc, env.appSecret),
    isActive: row.isActive,
    descriptionMaxLength: row.descriptionMaxLength,
  };
}
