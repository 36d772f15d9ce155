/**
 * A member's online payments (001 §3, §7): payment links for the caller's own PENDING assignment,
 * status checks that ask payOS while an order is pending, cancellation and the caller's history.
 * payOS is called before or after the synchronous transactions, never inside one.
 */
import { fullName, type CreatePaymentLink, type PaymentHistoryQuery, type PaymentOrder } from '@doanhoi/shared';
import { and, count, desc, eq, inArray, or } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, fail, forbidden, isUniqueViolation, notFound } from '../lib/errors';
import { totalPages } from '../lib/totals';
import { users } from '../db/tables/users';
import { payosClient, PayosError, type CreatedLink, type PayosCredentials } from '../payos/client';
import { orderDescription } from '../payos/description';
import { isSandbox, payosBaseUrl, publicOrigin } from '../payos/origin';
import { cancelAtPayos, closeOpenOrders, openOrders } from './links';
import { encryptSecret } from '../payos/crypto';
import { can, P, type RequestInfo } from '../access/payments';
import { ASSIGNMENT_NOT_FOUND } from './assignments.query';
import { newOrderCode } from './order-code';
import { campaignCredentials } from './credentials';
import { loadCampaign } from './rules';
import { feeLevels, paymentAssignments, paymentCampaigns, paymentOrders } from '../db/tables/payments';
import { closeOrder, toOrder, type OrderRow } from './settle';
import { throttledSync } from './status-throttle';
import { syncOrder } from './sync';
import { logger } from '../lib/logger';
import { deadHere, THIS_PROCESS } from '../lib/lease';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

const ORDER_NOT_FOUND = 'Không tìm thấy đơn thanh toán';
/** The largest id an integer key holds on PostgreSQL (order codes go far past it). */
const MAX_ID = 2_147_483_647;

/** A link this close to its end is not handed out again: the member could not finish paying. */
const REUSE_MARGIN_MS = 5 * 60_000;

export function ordersService(deps: Deps, actor: Actor, req: RequestInfo) {
  const { db, env } = deps;
  const caller = { actorId: actor.id, ip: req.ip };
  const client = (creds: PayosCredentials) => payosClient({ ...creds, baseUrl: payosBaseUrl(env) });

  /** Whether the caller may see this campaign's orders of other members (its reports). */
  const seesOthers = async (campaignId: number) => can(db, actor, P.reports, (await loadCampaign(db, campaignId)).organizationId);

  /**
   * The caller's own order, or any order of a campaign whose reports the caller may view. Another
   * member's order is "not found", as a missing one is (issue 26 item 9): a 403 would confirm that
   * the order code exists and is someone else's.
   */
  async function visibleOrder(row: OrderRow | undefined): Promise<OrderRow> {
    if (!row || (row.userId !== actor.id && !(await seesOthers(row.campaignId)))) notFound(ORDER_NOT_FOUND);
    return row!;
  }

  /** Asks payOS about a PENDING online order and applies the answer; payOS being unreachable changes nothing. */
  async function sync(order: OrderRow): Promise<OrderRow> {
    return (await syncOrder(deps, order, { ...caller, action: 'payment.sync' }, payosBaseUrl(env))).order;
  }

  /** When this order's link stops being payable (payOS expiredAt as sent at creation). */
  const linkEnd = (o: OrderRow, campaignEnd: Date) =>
    Math.min(o.createdAt.getTime() + env.PAYMENT_LINK_TTL_MINUTES * 60_000, campaignEnd.getTime());

  function linkAnswer(o: OrderRow, link?: CreatedLink) {
    return {
      success: true,
      message: 'Tạo link thanh toán thành công',
      data: {
        checkoutUrl: o.checkoutUrl ?? link?.checkoutUrl ?? null,
        orderCode: o.orderCode,
        paymentLinkId: o.paymentLinkId ?? link?.paymentLinkId ?? null,
        amount: o.amount,
        description: link?.description ?? null,
        qrCode: link?.qrCode ?? null,
        accountNumber: link?.accountNumber ?? null,
        accountName: link?.accountName ?? null,
        bin: link?.bin ?? null,
        /** The open link was handed out again (one payable link per assignment). */
        reused: !link,
      },
    };
  }

  /**
   * An order without its link yet is being opened at payOS by another request for 20 s at most,
   * unless the process opening it is gone (kill -9 of a worker): then the member's retry closes it
   * and opens a new one at once instead of waiting out the 20 s.
   */
  const stillOpening = (o: OrderRow) => Date.now() - o.createdAt.getTime() < 20_000 && !(o.openedBy && deadHere(o.openedBy));

  /** Another request is creating this assignment's link: wait for it rather than open a second one. */
  async function awaitOther(assignmentId: number) {
    for (let i = 0; i < 60; i++) {
      const o = await firstRow(
        db
          .select()
          .from(paymentOrders)
          .where(and(eq(paymentOrders.assignmentId, assignmentId), eq(paymentOrders.status, 'PENDING'))),
      );
      if (!o) return null;
      if (o.checkoutUrl || !stillOpening(o)) return o;
      await new Promise((r) => setTimeout(r, 250));
    }
    return conflict('Link thanh toán đang được tạo, vui lòng thử lại sau giây lát');
  }

  async function createLink(input: CreatePaymentLink) {
    const a = await firstRow(db.select().from(paymentAssignments).where(eq(paymentAssignments.id, input.assignmentId)));
    if (!a || (a.userId !== actor.id && !(await seesOthers(a.campaignId)))) notFound(ASSIGNMENT_NOT_FOUND);
    if (a!.userId !== actor.id) forbidden('Bạn chỉ có thể thanh toán khoản phí của chính mình');
    if (input.campaignId !== undefined && input.campaignId !== a!.campaignId) badRequest('Khoản phí không thuộc đợt thu này');
    const campaign = await loadCampaign(db, a!.campaignId);
    if (campaign.status !== 'ACTIVE') conflict('Đợt thu không còn mở thanh toán');
    if (a!.status === 'PAID') conflict('Khoản phí này đã được thanh toán');
    if (a!.status === 'EXEMPTED') conflict('Khoản phí này đã được miễn');
    if (a!.status === 'OVERDUE' || Date.now() > campaign.endDate.getTime()) conflict('Khoản phí đã quá hạn thanh toán');
    // What is still owed: the whole fee, or the balance of an underpayment (issue 11.3).
    const remaining = a!.amount - (a!.paidAmount ?? 0);
    if (remaining <= 0) conflict('Khoản phí này đã được thanh toán');
    const creds = await campaignCredentials(db, env, campaign.id);
    if (!creds?.isActive) conflict('Đợt thu chưa bật thanh toán trực tuyến (chưa có cấu hình PayOS đang hoạt động)');
    const payer = (await firstRow(
      db.select({ familyName: users.familyName, givenName: users.givenName, email: users.email }).from(users).where(eq(users.id, actor.id)),
    ))!;
    const payos = client(creds!);

    // One payable link per assignment (issue 11.1): the open one is handed out again while it is
    // payable for the right amount; a stale one is closed at payOS before a new one opens.
    let open = await firstRow(
      db
        .select()
        .from(paymentOrders)
        .where(and(eq(paymentOrders.assignmentId, a!.id), eq(paymentOrders.status, 'PENDING'))),
    );
    if (open && !open.checkoutUrl && stillOpening(open)) open = (await awaitOther(a!.id)) ?? undefined;
    if (open?.checkoutUrl && open.amount === remaining && linkEnd(open, campaign.endDate) - Date.now() > REUSE_MARGIN_MS)
      return linkAnswer(open);
    if (open) {
      const failed = await cancelAtPayos(deps, [open], 'Tạo link thanh toán mới');
      if (failed.length) fail(502, 'Không đóng được link thanh toán cũ tại PayOS, vui lòng thử lại sau');
      await closeOrder(db, open.id, 'CANCELLED', { ...caller, action: 'payment.cancel' });
    }

    // An underpaid link is still payable at payOS for the rest: close it before the balance gets its own (issue 25, 3d).
    const underpaid = (await openOrders(db, eq(paymentOrders.assignmentId, a!.id))).filter((o) => o.status === 'PAID');
    if (underpaid.length) {
      await cancelAtPayos(deps, underpaid, 'Tạo link thanh toán phần còn thiếu');
      await withTransaction(db, async (tx) =>
        closeOpenOrders(
          tx,
          inArray(
            paymentOrders.id,
            underpaid.map((o) => o.id),
          ),
        ),
      );
    }

    const description = `Thanh toán: ${campaign.name}`;
    let order: OrderRow;
    try {
      order = await firstRow(
        db
          .insert(paymentOrders)
          .values({
            orderCode: await newOrderCode(db),
            assignmentId: a!.id,
            campaignId: campaign.id,
            userId: actor.id,
            amount: remaining,
            description,
            status: 'PENDING',
            paymentMethod: 'ONLINE',
            isTest: isSandbox(env),
            payosChecksumKeyEnc: encryptSecret(creds!.checksumKey, env.appSecret),
            openedBy: THIS_PROCESS,
          })
          .returning(),
      );
    } catch (err) {
      // A parallel request opened the link first: hand out that one. The partial unique index
      // (payment_orders_one_open_uq) keeps one open order per assignment across processes on both
      // engines, so this read-then-insert takes no lock (payments/locks.ts).
      if (!isUniqueViolation(err)) throw err;
      const other = await awaitOther(a!.id);
      if (!other?.checkoutUrl) conflict('Khoản phí vừa thay đổi, vui lòng thử lại');
      return linkAnswer(other!);
    }
    const resultUrl = `${publicOrigin(env)}/payment-result/${order.orderCode}`;
    let link: CreatedLink;
    try {
      link = await payos.createPaymentLink({
        orderCode: order.orderCode,
        amount: order.amount,
        description: orderDescription(order.orderCode, campaign.name, creds!.descriptionMaxLength),
        returnUrl: resultUrl,
        cancelUrl: resultUrl,
        buyerName: fullName(payer),
        buyerEmail: payer.email,
        // Unix seconds, as payOS wants; never past the campaign's end.
        expiredAt: Math.floor(linkEnd(order, campaign.endDate) / 1000),
      });
      if (link.orderCode !== order.orderCode || link.amount !== order.amount)
        throw new PayosError('payOS trả về đơn không khớp', 200, 'MISMATCH');
    } catch (err) {
      // The order never existed at payOS: it leaves no trace in the member's history.
      await runQuery(db.delete(paymentOrders).where(eq(paymentOrders.id, order.id)));
      if (err instanceof PayosError) fail(502, `Không thể tạo link thanh toán: ${err.message}`);
      throw err;
    }
    await withTransaction(db, async (tx) => {
      await runQuery(
        tx
          .update(paymentOrders)
          .set({ paymentLinkId: link.paymentLinkId, checkoutUrl: link.checkoutUrl })
          .where(eq(paymentOrders.id, order.id)),
      );
      await audit(tx, {
        ...caller,
        action: 'payment.create_link',
        entity: 'payment_order',
        entityId: order.id,
        after: {
          orderCode: order.orderCode,
          assignmentId: a!.id,
          campaignId: campaign.id,
          amount: order.amount,
          paymentLinkId: link.paymentLinkId,
          clientAmount: input.amount ?? null,
          isTest: order.isTest,
        },
      });
    });
    return linkAnswer({ ...order, checkoutUrl: link.checkoutUrl, paymentLinkId: link.paymentLinkId }, link);
  }

  return {
    createLink,

    async checkStatus(orderCode: number): Promise<PaymentOrder> {
      const order = await visibleOrder(await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))));
      return toOrder(db, await throttledSync(db, order, sync));
    },

    /** Re-synchronises one order (by id) with payOS and returns it. */
    async process(id: number): Promise<PaymentOrder> {
      const order = await visibleOrder(await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.id, id))));
      return toOrder(db, await throttledSync(db, order, sync));
    },

    /** The caller's PENDING order (by id or order code) → CANCELLED, also at payOS. */
    async cancel(idOrCode: number): Promise<PaymentOrder> {
      const row = await firstRow(
        db
          .select()
          .from(paymentOrders)
          // An order code passes PostgreSQL's integer ids: compared with them it would be refused, not unmatched.
          .where(
            idOrCode <= MAX_ID
              ? or(eq(paymentOrders.id, idOrCode), eq(paymentOrders.orderCode, idOrCode))
              : eq(paymentOrders.orderCode, idOrCode),
          ),
      );
      if (!row || (row.userId !== actor.id && !(await seesOthers(row.campaignId)))) notFound(ORDER_NOT_FOUND);
      if (row!.userId !== actor.id) forbidden('Bạn chỉ có thể hủy đơn thanh toán của chính mình');
      // payOS may have been paid meanwhile: learn that first.
      const order = await sync(row!);
      if (order.status !== 'PENDING') conflict(`Đơn thanh toán không còn chờ thanh toán (trạng thái: ${order.status})`);
      const creds = await campaignCredentials(db, env, order.campaignId);
      if (creds && order.paymentLinkId) {
        await client(creds)
          .cancelPaymentLink(order.orderCode, 'Người dùng hủy thanh toán')
          .catch((err: Error) => logger.warn({ orderCode: order.orderCode, error: err.message }, 'payOS cancel failed'));
      }
      await closeOrder(db, order.id, 'CANCELLED', { ...caller, action: 'payment.cancel' });
      return toOrder(db, (await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id))))!);
    },

    /** The caller's own orders, newest first. */
    async history(q: PaymentHistoryQuery) {
      const where = and(eq(paymentOrders.userId, actor.id), q.status ? eq(paymentOrders.status, q.status) : undefined);
      const total = (await firstRow(db.select({ n: count() }).from(paymentOrders).where(where)))!.n;
      const rows = await allRows(
        db
          .select({ o: paymentOrders, campaign: { id: paymentCampaigns.id, name: paymentCampaigns.name }, levelName: feeLevels.levelName })
          .from(paymentOrders)
          .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentOrders.campaignId))
          .innerJoin(paymentAssignments, eq(paymentAssignments.id, paymentOrders.assignmentId))
          .innerJoin(feeLevels, eq(feeLevels.id, paymentAssignments.feeLevelId))
          .where(where)
          .orderBy(desc(paymentOrders.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
      );
      return {
        items: await mapInOrder(rows, async (r) => ({
          ...(await toOrder(db, r.o)),
          campaign: r.campaign,
          feeLevel: { levelName: r.levelName },
        })),
        total,
        page: q.page,
        limit: q.limit,
        totalPages: totalPages(total, q.limit),
      };
    },
  };
}
