/**
 * payOS credentials per campaign (001 §3, §7). apiKey and checksumKey are stored encrypted and
 * returned masked, unless a caller who may update the campaign asks to reveal them (audited).
 */
import type { CreatePayosConfig, PayosConfig, TestPayosConnection, UpdatePayosConfig, WebhookConfirmation } from '@doanhoi/shared';
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Env } from '../env';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, conflictOnUnique, fail, invalidField, notFound } from '../lib/errors';
import { logger } from '../lib/logger';
import { PAYOS_NOT_FOUND, payosClient, PayosError, type PayosCredentials } from '../payos/client';
import { decryptSecret, encryptSecret, isMasked, maskSecret } from '../payos/crypto';
import { isSandbox, payosBaseUrl, publicOrigin, webhookUrl } from '../payos/origin';
import { assertCan, P, type RequestInfo } from '../access/payments';
import { assertWritable, loadCampaign } from './rules';
import { cancelAtPayos, closeOpenOrders, openOrders } from './links';
import { campaignCredentials, configRow } from './credentials';
import type { Tx } from './money';
import { paymentOrders, payosConfigs } from '../db/tables/payments';
import type { OrderRow } from './settle';
import { firstRow, runQuery, withTransaction } from '../db/engine';

type ConfigRow = typeof payosConfigs.$inferSelect;
const NOT_FOUND = 'Đợt thu chưa có cấu hình PayOS';
const EXISTS = 'Đợt thu đã có cấu hình PayOS, hãy cập nhật cấu hình hiện có';

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

  async function existing(campaignId: number): Promise<ConfigRow> {
    const row = await configRow(db, campaignId);
    if (!row) notFound(NOT_FOUND);
    return row!;
  }

  /**
   * Links opened under a configuration are closed at payOS before it is deleted or swapped (issue 25,
   * 3b): afterwards nothing could cancel them. Refused, with the reason, when payOS cannot confirm.
   */
  async function closeLinksFirst(campaignId: number, what: string) {
    const links = await openOrders(db, eq(paymentOrders.campaignId, campaignId));
    const failed = await cancelAtPayos({ db, env }, links, 'Cấu hình PayOS của đợt thu đã thay đổi');
    if (failed.length) {
      fail(
        502,
        `Không thể ${what}: PayOS chưa xác nhận đóng ${failed.length} link thanh toán đang mở (mã đơn ${failed.map((o) => o.orderCode).join(', ')}). ` +
          'Thành viên vẫn có thể trả tiền vào các link này; hãy thử lại khi PayOS phản hồi.',
      );
    }
    return links;
  }

  /** In the write's transaction: the configuration is still the one read, and no link opened meanwhile. */
  async function settleLinks(tx: Tx, campaignId: number, before: ConfigRow, links: OrderRow[]) {
    const current = await firstRow(tx.select().from(payosConfigs).where(eq(payosConfigs.id, before.id)));
    if (!current || current.updatedAt.getTime() !== before.updatedAt.getTime())
      conflict('Cấu hình PayOS vừa được người khác thay đổi, vui lòng tải lại');
    await closeOpenOrders(tx, eq(paymentOrders.campaignId, campaignId), new Date(), links);
  }

  async function writableCampaign(campaignId: number) {
    const campaign = await loadCampaign(db, campaignId);
    assertWritable(campaign, 'thay đổi cấu hình PayOS');
    return campaign;
  }

  return {
    async get(campaignId: number, reveal = false): Promise<PayosConfig | null> {
      const campaign = await loadCampaign(db, campaignId);
      const row = await configRow(db, campaignId);
      if (!row) return null;
      if (reveal) {
        await assertCan(db, actor, P.update, campaign.organizationId);
        await withTransaction(db, async (tx) =>
          audit(tx, { ...caller, action: 'payos_config.reveal', entity: 'payos_config', entityId: row.id }),
        );
      }
      return toConfig(row, reveal);
    },

    /** The config payments of this campaign use: its own, when active (no inheritance). */
    async effective(campaignId: number) {
      await loadCampaign(db, campaignId);
      const row = await configRow(db, campaignId);
      return {
        config: row && row.isActive ? toConfig(row) : null,
        active: !!row?.isActive,
        reason: !row ? 'Đợt thu chưa có cấu hình PayOS' : row.isActive ? null : 'Cấu hình PayOS đang tắt',
      };
    },

    async create(campaignId: number, input: CreatePayosConfig): Promise<PayosConfig> {
      const campaign = await writableCampaign(campaignId);
      if (input.organizationId !== undefined && input.organizationId !== campaign.organizationId)
        badRequest('Tổ chức không khớp với tổ chức của đợt thu');
      if (await configRow(db, campaignId)) conflict(EXISTS);
      const insert = async () =>
        await withTransaction(db, async (tx) => {
          const created = await firstRow(
            tx
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
              .returning(),
          );
          await audit(tx, {
            ...caller,
            action: 'payos_config.create',
            entity: 'payos_config',
            entityId: created.id,
            after: snapshot(created, env),
          });
          return created;
        });
      // A concurrent create past the check above.
      return toConfig(await conflictOnUnique(EXISTS, insert));
    },

    async update(campaignId: number, input: UpdatePayosConfig): Promise<PayosConfig> {
      await writableCampaign(campaignId);
      const before = await existing(campaignId);
      // Only the stored key's own masked value means "keep it"; any other masked text is a mistake (issue 11.6).
      const keep = (v: string | undefined, stored: string, field: string) => {
        if (v === undefined) return true;
        if (!isMasked(v)) return false;
        if (v !== maskSecret(decryptSecret(stored, env.appSecret)))
          invalidField(field, 'Giá trị đã che (••••) không khớp khóa đang lưu, hãy nhập khóa đầy đủ');
        return true;
      };
      const keepApi = keep(input.apiKey, before.apiKeyEnc, 'apiKey');
      const keepChecksum = keep(input.checksumKey, before.checksumKeyEnc, 'checksumKey');
      const differs = (v: string | undefined, keepIt: boolean, stored: string) => !keepIt && v !== decryptSecret(stored, env.appSecret);
      const swap =
        (input.clientId !== undefined && input.clientId !== before.clientId) ||
        differs(input.apiKey, keepApi, before.apiKeyEnc) ||
        differs(input.checksumKey, keepChecksum, before.checksumKeyEnc);
      const links = swap ? await closeLinksFirst(campaignId, 'thay cấu hình PayOS') : [];
      const after = await withTransaction(db, async (tx) => {
        if (swap) await settleLinks(tx, campaignId, before, links);
        const row = await firstRow(
          tx
            .update(payosConfigs)
            .set({
              clientId: input.clientId ?? before.clientId,
              apiKeyEnc: keepApi ? before.apiKeyEnc : encryptSecret(input.apiKey!, env.appSecret),
              checksumKeyEnc: keepChecksum ? before.checksumKeyEnc : encryptSecret(input.checksumKey!, env.appSecret),
              isActive: input.isActive ?? before.isActive,
              descriptionMaxLength: input.descriptionMaxLength ?? before.descriptionMaxLength,
            })
            .where(eq(payosConfigs.id, before.id))
            .returning(),
        );
        await audit(tx, {
          ...caller,
          action: 'payos_config.update',
          entity: 'payos_config',
          entityId: before.id,
          before: snapshot(before, env),
          after: snapshot(row, env),
        });
        return row;
      });
      return toConfig(after);
    },

    async remove(campaignId: number): Promise<void> {
      await writableCampaign(campaignId);
      const before = await existing(campaignId);
      const links = await closeLinksFirst(campaignId, 'xóa cấu hình PayOS');
      await withTransaction(db, async (tx) => {
        await settleLinks(tx, campaignId, before, links);
        await runQuery(tx.delete(payosConfigs).where(eq(payosConfigs.id, before.id)));
        await audit(tx, {
          ...caller,
          action: 'payos_config.delete',
          entity: 'payos_config',
          entityId: before.id,
          before: snapshot(before, env),
        });
      });
    },

    async toggleActive(campaignId: number): Promise<PayosConfig> {
      await writableCampaign(campaignId);
      const before = await existing(campaignId);
      const after = await withTransaction(db, async (tx) => {
        const row = await firstRow(
          tx.update(payosConfigs).set({ isActive: !before.isActive }).where(eq(payosConfigs.id, before.id)).returning(),
        );
        await audit(tx, {
          ...caller,
          action: 'payos_config.toggle_active',
          entity: 'payos_config',
          entityId: before.id,
          before: { isActive: before.isActive },
          after: { isActive: row.isActive },
        });
        return row;
      });
      return toConfig(after);
    },

    /**
     * Registers this server's webhook URL with payOS (its confirm-webhook call, which also calls the
     * URL once) and keeps the answer on the config, to show on the payOS tab (issue 11.8).
     */
    async confirmWebhook(campaignId: number): Promise<WebhookConfirmation> {
      await loadCampaign(db, campaignId);
      const row = await existing(campaignId);
      const creds = (await campaignCredentials(db, env, campaignId))!;
      const url = webhookUrl(env);
      let confirmed = false;
      let message: string;
      try {
        await payosClient({ ...creds, baseUrl, timeoutMs: 20_000 }).confirmWebhook(url);
        confirmed = true;
        message = 'PayOS đã xác nhận webhook';
      } catch (err) {
        if (!(err instanceof PayosError)) throw err;
        message =
          err.status === 0
            ? `Không kết nối được PayOS: ${err.message}`
            : `PayOS từ chối webhook: ${err.message}${err.code ? ` (mã ${err.code})` : ''}`;
      }
      await withTransaction(db, async (tx) => {
        await runQuery(
          tx
            .update(payosConfigs)
            .set({ webhookUrl: url, webhookConfirmedAt: confirmed ? new Date() : row.webhookConfirmedAt, webhookMessage: message })
            .where(eq(payosConfigs.id, row.id)),
        );
        await audit(tx, {
          ...caller,
          action: 'payos_config.confirm_webhook',
          entity: 'payos_config',
          entityId: row.id,
          after: { webhookUrl: url, confirmed, message },
        });
      });
      return { webhookUrl: url, confirmed, message };
    },

    async webhookUrl(campaignId: number) {
      await loadCampaign(db, campaignId);
      return { webhookUrl: webhookUrl(env) };
    },

    /**
     * Proves the credentials with payOS (issue 11.9, issue 25 5b). First a payment request that does
     * not exist: payOS's "not found" means the client id and API key were accepted. Then the checksum
     * key: a probe link is created (a request signed with it, which payOS checks) and payOS's signed
     * answer is verified with it; the probe is cancelled at once. No answer at all is "unreachable".
     * Unsaved credentials may be tested by sending them (the stored key's masked value means "the stored one").
     */
    async testConnection(
      campaignId: number,
      input: TestPayosConnection,
    ): Promise<{ connected: boolean; reason: 'ok' | 'credentials' | 'unreachable'; message: string }> {
      await loadCampaign(db, campaignId);
      const stored = await campaignCredentials(db, env, campaignId);
      const pick = (v: string | undefined, s: string | undefined) => (v !== undefined && !isMasked(v) ? v : s);
      const creds = {
        clientId: pick(input.clientId, stored?.clientId),
        apiKey: pick(input.apiKey, stored?.apiKey),
        checksumKey: pick(input.checksumKey, stored?.checksumKey),
      };
      if (!creds.clientId || !creds.apiKey || !creds.checksumKey) notFound(NOT_FOUND);
      const client = payosClient({ ...(creds as PayosCredentials), baseUrl, timeoutMs: 10_000 });
      const unreachable = (err: PayosError) => err.status === 0 || err.status >= 500 || err.code === null;
      // Far above our order codes (ms × 100), so a probe never takes a code a real order will want.
      const probe = Date.now() * 1000 + randomInt(1000);
      try {
        await client.getPaymentLink(probe);
      } catch (err) {
        if (!(err instanceof PayosError)) throw err;
        if (unreachable(err)) return { connected: false, reason: 'unreachable', message: `Không kết nối được PayOS: ${err.message}` };
        if (err.code !== PAYOS_NOT_FOUND && err.code !== 'SIGNATURE') {
          return {
            connected: false,
            reason: 'credentials',
            message: `PayOS từ chối thông tin xác thực (Client ID hoặc API Key không đúng): ${err.message}${err.code ? ` (mã ${err.code})` : ''}`,
          };
        }
      }
      const back = publicOrigin(env);
      try {
        await client.createPaymentLink({
          orderCode: probe,
          amount: 2000,
          description: 'KTKN',
          returnUrl: back,
          cancelUrl: back,
          expiredAt: Math.floor(Date.now() / 1000) + 120,
        });
      } catch (err) {
        if (!(err instanceof PayosError)) throw err;
        if (err.status === 0 || err.status >= 500)
          return { connected: false, reason: 'unreachable', message: `Không kết nối được PayOS: ${err.message}` };
        const why =
          err.code === 'SIGNATURE'
            ? 'chữ ký trong phản hồi của PayOS không khớp khóa này'
            : `PayOS từ chối yêu cầu ký bằng khóa này: ${err.message}${err.code ? ` (mã ${err.code})` : ''}`;
        return { connected: false, reason: 'credentials', message: `Checksum Key không đúng: ${why}` };
      }
      await client
        .cancelPaymentLink(probe, 'Kiểm tra kết nối')
        .catch((err: Error) => logger.warn({ orderCode: probe, error: err.message }, 'payOS probe cancel failed'));
      return { connected: true, reason: 'ok', message: 'Kết nối PayOS thành công (Client ID, API Key và Checksum Key đều đúng)' };
    },
  };
}
