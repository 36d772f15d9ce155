/** /payment-result/:orderCode: where payOS sends the member back; shows and follows the order's status. */
import { useEffect } from 'react';
import { useTranslation } from '../i18n';
import { formatDateTime, formatVnd } from '@doanhoi/shared';
import { OrderDetails } from '../components/payment-result/order-details';
import { Receipt } from '../components/payment-result/receipt';
import { StatusDisplay } from '../components/payment-result/status-display';
import { ErrorState, LoadingState } from '../components/states';
import { useOrderStatus } from '../hooks/use-order-status';
import { Link } from '../router';
import { hasReceipt, headlineOf } from '../outcome';
import { MY_CAMPAIGNS_PATH, normalizeOrderStatus, readDate } from '../rules';

/** "Back to home" after paying: the member's home is the portal's my-payments page, not the admin dashboard (issue 11 item 15). */
export const HOME_URL = MY_CAMPAIGNS_PATH;

export function PaymentResultPage({ orderCode }: { orderCode: string }) {
  const { t } = useTranslation('myPayments');
  const { state, checking, stopped, interval, retry, checkAgain } = useOrderStatus(orderCode);

  useEffect(() => {
    document.title = `${t('paymentResult.pageTitle')} · ${t('portal:appTitle')}`;
  }, [t]);

  const back = (
    <Link className="btn btn-default" href={MY_CAMPAIGNS_PATH} data-testid="back-button">
      {t('paymentResult.buttons.back')}
    </Link>
  );

  let body;
  if (state.phase === 'loading') {
    body = <LoadingState label={t('paymentResult.loading')} />;
  } else if (state.phase === 'error') {
    body = (
      <ErrorState
        title={t('errors.statusCheckFailed')}
        message={state.message}
        actions={
          <>
            <button type="button" className="btn btn-primary" onClick={retry}>
              {t('portal:common.retry')}
            </button>
            {back}
          </>
        }
      />
    );
  } else if (state.phase === 'notFound') {
    body = (
      <div data-testid="payment-not-found">
        <ErrorState title={t('paymentResult.notFound.title')} message={t('paymentResult.notFound.message', { orderCode })} actions={back} />
      </div>
    );
  } else {
    const status = normalizeOrderStatus(state.order.status);
    const receipt = hasReceipt(state.order);
    const h = headlineOf(state.order);
    const o = state.order.outcome;
    const figures = o && {
      received: formatVnd(o.received),
      counted: formatVnd(o.counted),
      refund: formatVnd(o.refundDue),
      refunded: formatVnd(o.refunded),
      due: formatVnd(o.stillDue),
      code: o.reversesOrderCode ?? '',
      date: formatDateTime(readDate(o.reversedAt)),
      reason: o.reversalReason ?? '',
    };
    const headline =
      h && figures
        ? {
            tone: h.tone,
            title: t(`paymentResult.outcome.${h.kind}.title`, figures),
            message: t(`paymentResult.outcome.${h.messageKey}`, figures),
            extra: h.stillDue > 0 ? t('paymentResult.outcome.stillDue', { due: formatVnd(h.stillDue) }) : null,
          }
        : null;
    body = (
      <>
        <StatusDisplay
          status={status}
          checking={checking}
          stopped={stopped}
          interval={interval}
          onCheckAgain={() => void checkAgain()}
          headline={headline}
        />
        {state.order.isTest ? (
          <div className="notice notice-warning no-print" data-testid="test-payment-notice">
            <div>{t('paymentResult.testPayment')}</div>
          </div>
        ) : null}
        {state.order.attention && !state.order.resolution ? (
          <div className="notice notice-warning" data-testid="order-attention" data-attention={state.order.attention}>
            <div>
              {t(`paymentResult.attention.${state.order.attentionReason ?? state.order.attention}`, {
                amount: formatVnd(state.order.attentionAmount ?? 0),
              })}
            </div>
          </div>
        ) : null}
        {receipt ? <Receipt order={state.order} /> : null}
        <OrderDetails order={state.order} status={status} />
        <div className="actions no-print" data-testid="result-actions">
          {back}
          {status === 'PAID' && receipt ? (
            <Link className="btn btn-primary" href={HOME_URL} data-testid="dashboard-button">
              {t('paymentResult.buttons.dashboard')}
            </Link>
          ) : null}
          {status === 'CANCELLED' || status === 'EXPIRED' ? (
            <Link className="btn btn-primary" href={MY_CAMPAIGNS_PATH} data-testid="retry-payment-button">
              {t('paymentResult.buttons.retry')}
            </Link>
          ) : null}
          {/* Only money that counted has a receipt to print (issue 25.3c). */}
          {receipt ? (
            <button type="button" className="btn btn-default" onClick={() => window.print()}>
              {t('paymentResult.buttons.print')}
            </button>
          ) : null}
        </div>
      </>
    );
  }

  return (
    <div
      className={state.phase === 'ready' && hasReceipt(state.order) ? 'page page-narrow has-receipt' : 'page page-narrow'}
      data-testid="payment-result"
    >
      <div className="page-head">
        <h1>{t('paymentResult.pageTitle')}</h1>
      </div>
      <div className="card result-card">{body}</div>
    </div>
  );
}
