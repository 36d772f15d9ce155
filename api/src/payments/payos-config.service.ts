/**
 * payOS credentials per campaign (001 §3, §7). apiKey and checksumKey are stored encrypted and
 * returned masked, unless a caller who may update the campaign asks to reveal them (audited).
 */
import type { CreatePayosConfig, PayosConfig, TestPayosConnection, UpdatePayosConfig, WebhookConfirmation } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { audit } from '../lib/audit';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, conflictOnUnique, notFound } from '../lib/errors';
import { PAYOS_NOT_FOUND, payosClient, PayosError, type PayosCredentials } from '../payos/client';
import { decryptSecret, encryptSecret, isMasked, maskSecret } from '../payos/crypto';
import { isSandbox, payosBaseUrl, webhookUrl } from '../payos/origin';
import { assertCan, P, type RequestInfo } from './access';
import { assertWritable, loadCampaign } from './rules';
import { payosConfigs } from './schema';

type ConfigRow = typeof payosConfigs.$inferSelect;
const NOT_FOUND = 'Đợt thu chưa có cấu hình PayOS';
const EXISTS = 'Đợt thu đã có cấu hình PayOS, hãy cập nhật cấu hình hiện có';

export function configRow(db: Pick<Db, 'select'>, campaignId: number): ConfigRow | null {
  return db.select().from(payosConfigs).where(eq(payosConfigs.campaignId, campaignId)).get() ?? null;
}

/** Decrypted credentials of a campaign (whether or not the config is active), or null. */
export function campaignCredentials(db: Db, env: Env, campaignId: number): (PayosCredentials & { isActive: boolean; descriptionMaxLength: number }) | null {
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

/** What the audit log keeps: identifiers masked, never a key. */
function snapshot(r: ConfigRow, env: Env) {
  return {
    id: r.id,
    campaignId: r.campaignId,
    organizationId: r.organizationId,
    clientId: maskSecret(r.clientId),
    apiKeyHint: maskSecret(decryptSecret(r.apiKeyEnc, env.appSecret)),
    checksumKeyHint: maskSecret(decryptSecret(r.checksumKeyEnc, env.appSecret)),
    isActive: r.isActive,
  };
}

export function payosConfigService({ db, env }: Deps, actor: Actor, req: RequestInfo) {
  const caller = { actorId: actor.id, ip: req.ip };
  const baseUrl = payosBaseUrl(env);

  function toConfig(r: ConfigRow, reveal = false): PayosConfig {
    const apiKey = decryptSecret(r.apiKeyEnc, env.appSecret);
    const checksumKey = decryptSecret(r.checksumKeyEnc, env.appSecret);
    return {
      id: r.id,
      campaignId: r.campaignId,
      organizationId: r.organizationId,
      clientId: r.clientId,
      apiKey: reveal ? apiKey : maskSecret(apiKey),
      checksumKey: reveal ? checksumKey : maskSecret(checksumKey),
      masked: !reveal,
      isActive: r.isActive,
      descriptionMaxLength: r.descriptionMaxLength,
      webhookUrl: webhookUrl(env),
      webhookConfirmedUrl: r.webhookConfirmedAt ? r.webhookUrl : null,
      webhookConfirmedAt: r.webhookConfirmedAt ? r.webhookConfirmedAt.toISOString() : null,
      webhookMessage: r.webhookMessage,
      sandbox: isSandbox(env),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  }

  function existing(campaignId: number): ConfigRow {
    const row = configRow(db, campaignId);
    if (!row) notFound(NOT_FOUND);
    return row!;
  }

  function writableCampaign(campaignId: number) {
    const campaign = loadCampaign(db, campaignId);
    assertWritable(campaign, 'thay đổi cấu hình PayOS');
    return campaign;
  }

  return {
    get(campaignId: number, reveal = false): PayosConfig | null {
      const campaign = loadCampaign(db, campaignId);
      const row = configRow(db, campaignId);
      if (!row) return null;
      if (reveal) {
        assertCan(db, actor, P.update, campaign.organizationId);
        db.transaction((tx) => audit(tx, { ...caller, action: 'payos_config.reveal', entity: 'payos_config', entityId: row.id }));
      }
      return toConfig(row, reveal);
    },

    /** The config payments of this campaign use: its own, when active (no inheritance). */
    effective(campaignId: number) {
      loadCampaign(db, campaignId);
      const row = configRow(db, campaignId);
      return {
        config: row && row.isActive ? toConfig(row) : null,
        active: !!row?.isActive,
        reason: !row ? 'Đợt thu chưa có cấu hình PayOS' : row.isActive ? null : 'Cấu hình PayOS đang tắt',
      };
    },

    create(campaignId: number, input: CreatePayosConfig): PayosConfig {
      const campaign = writableCampaign(campaignId);
      if (input.organizationId !== undefined && input.organizationId !== campaign.organizationId) badRequest('Tổ chức không khớp với tổ chức của đợt thu');
      if (configRow(db, campaignId)) conflict(EXISTS);
      const insert = () =>
        db.transaction((tx) => {
          const created = tx
            .insert(payosConfigs)
            .values({
              campaignId,
              organizationId: campaign.organizationId,
              clientId: input.clientId,
              apiKeyEnc: encryptSecret(input.apiKey, env.appSecret),
              checksumKeyEnc: encryptSecret(input.checksumKey, env.appSecret),
              isActive: input.isActive ?? true,
              descriptionMaxLength: input.descriptionMaxLength ?? 9,
            })
            .returning()
            .get();
          audit(tx, { ...caller, action: 'payos_config.create', entity: 'payos_config', entityId: created.id, after: snapshot(created, env) });
          return created;
        });
      // A concurrent create past the check above.
      return toConfig(conflictOnUnique(EXISTS, insert));
    },

    update(campaignId: number, input: UpdatePayosConfig): PayosConfig {
      writableCampaign(campaignId);
      const before = existing(campaignId);
      // Only the stored key's own masked value means "keep it"; any other masked text is a mistake (issue 11.6).
      const keep = (v: string | undefined, stored: string, field: string) => {
        if (v === undefined) return true;
        if (!isMasked(v)) return false;
        if (v !== maskSecret(decryptSecret(stored, env.appSecret))) badRequest(`${field}: giá trị đã che (••••) không khớp khóa đang lưu, hãy nhập khóa đầy đủ`);
        return true;
      };
      const keepApi = keep(input.apiKey, before.apiKeyEnc, 'apiKey');
      const keepChecksum = keep(input.checksumKey, before.checksumKeyEnc, 'checksumKey');
      const after = db.transaction((tx) => {
        const row = tx
          .update(payosConfigs)
          .set({
            clientId: input.clientId ?? before.clientId,
            apiKeyEnc: keepApi ? before.apiKeyEnc : encryptSecret(input.apiKey!, env.appSecret),
            checksumKeyEnc: keepChecksum ? before.checksumKeyEnc : encryptSecret(input.checksumKey!, env.appSecret),
            isActive: input.isActive ?? before.isActive,
            descriptionMaxLength: input.descriptionMaxLength ?? before.descriptionMaxLength,
          })
          .where(eq(payosConfigs.id, before.id))
          .returning()
          .get();
        audit(tx, { ...caller, action: 'payos_config.update', entity: 'payos_config', entityId: before.id, before: snapshot(before, env), after: snapshot(row, env) });
        return row;
      });
      return toConfig(after);
    },

    remove(campaignId: number): void {
      writableCampaign(campaignId);
      const before = existing(campaignId);
      db.transaction((tx) => {
        tx.delete(payosConfigs).where(eq(payosConfigs.id, before.id)).run();
        audit(tx, { ...caller, action: 'payos_config.delete', entity: 'payos_config', entityId: before.id, before: snapshot(before, env) });
      });
    },

    toggleActive(campaignId: number): PayosConfig {
      writableCampaign(campaignId);
      const before = existing(campaignId);
      const after = db.transaction((tx) => {
        const row = tx.update(payosConfigs).set({ isActive: !before.isActive }).where(eq(payosConfigs.id, before.id)).returning().get();
        audit(tx, { ...caller, action: 'payos_config.toggle_active', entity: 'payos_config', entityId: before.id, before: { isActive: before.isActive }, after: { isActive: row.isActive } });
        return row;
      });
      return toConfig(after);
    },

    /**
     * Registers this server's webhook URL with payOS (its confirm-webhook call, which also calls the
     * URL once) and keeps the answer on the config, to show on the payOS tab (issue 11.8).
     */
    async confirmWebhook(campaignId: number): Promise<WebhookConfirmation> {
      loadCampaign(db, campaignId);
      const row = existing(campaignId);
      const creds = campaignCredentials(db, env, campaignId)!;
      const url = webhookUrl(env);
      let confirmed = false;
      let message: string;
      try {
        await payosClient({ ...creds, baseUrl, timeoutMs: 20_000 }).confirmWebhook(url);
        confirmed = true;
        message = 'PayOS đã xác nhận webhook';
      } catch (err) {
        if (!(err instanceof PayosError)) throw err;
        message = err.status === 0 ? `Không kết nối được PayOS: ${err.message}` : `PayOS từ chối webhook: ${err.message}${err.code ? ` (mã ${err.code})` : ''}`;
      }
      db.transaction((tx) => {
        tx.update(payosConfigs)
          .set({ webhookUrl: url, webhookConfirmedAt: confirmed ? new Date() : row.webhookConfirmedAt, webhookMessage: message })
          .where(eq(payosConfigs.id, row.id))
          .run();
        audit(tx, { ...caller, action: 'payos_config.confirm_webhook', entity: 'payos_config', entityId: row.id, after: { webhookUrl: url, confirmed, message } });
      });
      return { webhookUrl: url, confirmed, message };
    },

    webhookUrl(campaignId: number) {
      loadCampaign(db, campaignId);
      return { webhookUrl: webhookUrl(env) };
    },

    /**
     * Asks payOS about a payment request that does not exist. Accepted credentials get payOS's
     * "not found" (or a signed answer); any other payOS code, even with HTTP 200, is a credential
     * failure (issue 11.9); no answer at all is "unreachable". Unsaved credentials may be tested
     * by sending them (the stored key's masked value means "the stored one").
     */
    async testConnection(campaignId: number, input: TestPayosConnection): Promise<{ connected: boolean; reason: 'ok' | 'credentials' | 'unreachable'; message: string }> {
      loadCampaign(db, campaignId);
      const stored = campaignCredentials(db, env, campaignId);
      const pick = (v: string | undefined, s: string | undefined) => (v !== undefined && !isMasked(v) ? v : s);
      const creds = { clientId: pick(input.clientId, stored?.clientId), apiKey: pick(input.apiKey, stored?.apiKey), checksumKey: pick(input.checksumKey, stored?.checksumKey) };
      if (!creds.clientId || !creds.apiKey || !creds.checksumKey) notFound(NOT_FOUND);
      const client = payosClient({ ...(creds as PayosCredentials), baseUrl, timeoutMs: 10_000 });
      const ok = { connected: true, reason: 'ok' as const, message: 'Kết nối PayOS thành công' };
      try {
        await client.getPaymentLink(Date.now() * 1000 + 999);
        return ok;
      } catch (err) {
        if (!(err instanceof PayosError)) throw err;
        if (err.status === 0 || err.status >= 500 || err.code === null) {
          return { connected: false, reason: 'unreachable', message: `Không kết nối được PayOS: ${err.message}` };
        }
        if (err.code === 'SIGNATURE') return { connected: false, reason: 'credentials', message: 'Checksum Key không khớp với PayOS' };
        if (err.code === PAYOS_NOT_FOUND) return ok;
        return { connected: false, reason: 'credentials', message: `PayOS từ chối thông tin xác thực (Client ID hoặc API Key không đúng): ${err.message}${err.code ? ` (mã ${err.code})` : ''}` };
      }
    },
  };
}
