/**
 * Loads a payment order by its code and, while it is PENDING, re-checks it with a backoff until it gives up
 * (rules.nextPollDelay); once it is not PENDING, checks a little longer for a late flag (rules.settledRecheckDelay).
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiError, checkPaymentStatus, type ResultOrder } from '../api';
import { nextPollDelay, normalizeOrderStatus, settledRecheckDelay } from '../rules';

export type OrderState =
  { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'notFound' } | { phase: 'ready'; order: ResultOrder };

const MIN_CHECKING_MS = 600;
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function useOrderStatus(orderCode: string) {
  const [state, setState] = useState<OrderState>({ phase: 'loading' });
  const [checking, setChecking] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // Bumped after every background check (success or not) to schedule the next one.
  const [tick, setTick] = useState(0);
  // When automatic checking (re)started; "check again" moves it to now.
  const [since, setSince] = useState(() => Date.now());
  const [stopped, setStopped] = useState(false);
  const [interval, setIntervalMs] = useState<number | null>(null);

  useEffect(() => {
    let live = true;
    setState({ phase: 'loading' });
    // Order codes are positive integers; anything else cannot exist.
    if (!/^\d{1,16}$/.test(orderCode)) {
      setState({ phase: 'notFound' });
      return;
    }
    checkPaymentStatus(orderCode).then(
      (order) => live && setState(order ? { phase: 'ready', order } : { phase: 'notFound' }),
      (err: unknown) =>
        live && setState(err instanceof ApiError && err.status === 404 ? { phase: 'notFound' } : { phase: 'error', message: message(err) }),
    );
    return () => {
      live = false;
    };
  }, [orderCode, attempt]);

  const pending = state.phase === 'ready' && normalizeOrderStatus(state.order.status) === 'PENDING';

  useEffect(() => {
    if (!pending) return;
    const delay = nextPollDelay(Date.now() - since);
    setIntervalMs(delay);
    if (delay === null) {
      setStopped(true);
      return;
    }
    let live = true;
    const timer = window.setTimeout(async () => {
      setChecking(true);
      try {
        // The indicator spins at least MIN_CHECKING_MS so a fast answer is still visible.
        const [order] = await Promise.all([checkPaymentStatus(orderCode), new Promise((r) => window.setTimeout(r, MIN_CHECKING_MS))]);
        if (live && order) setState({ phase: 'ready', order });
      } catch (err) {
        // A failed background check keeps the last known status; the next one retries.
        console.warn('[payment-result] status check failed:', message(err));
      } finally {
        if (live) {
          setChecking(false);
          setTick((n) => n + 1);
        }
      }
    }, delay);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [pending, orderCode, tick, since]);

  // Checks done since the order left PENDING (a page reload or retry starts again).
  const [settledChecks, setSettledChecks] = useState(0);
  const settled = state.phase === 'ready' && !pending;
  useEffect(() => setSettledChecks(0), [orderCode, attempt]);
  useEffect(() => {
    if (!settled) return;
    const delay = settledRecheckDelay(settledChecks);
    if (delay === null) return;
    let live = true;
    const timer = window.setTimeout(async () => {
      try {
        const order = await checkPaymentStatus(orderCode);
        if (live && order) setState({ phase: 'ready', order });
      } catch (err) {
        console.warn('[payment-result] status check failed:', message(err));
      } finally {
        if (live) setSettledChecks((n) => n + 1);
      }
    }, delay);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [settled, settledChecks, orderCode]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  /** Checks now and restarts the automatic checks. */
  const checkAgain = useCallback(async () => {
    setStopped(false);
    setChecking(true);
    try {
      const order = await checkPaymentStatus(orderCode);
      if (order) setState({ phase: 'ready', order });
    } catch (err) {
      console.warn('[payment-result] status check failed:', message(err));
    } finally {
      setChecking(false);
      setSince(Date.now());
    }
  }, [orderCode]);
  return { state, checking, stopped, interval, retry, checkAgain };
}
