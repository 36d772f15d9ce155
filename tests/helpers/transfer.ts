/**
 * Bytes a page really downloads (issue 12's page-weight budgets): Chromium's encodedDataLength per
 * finished request (compressed body plus headers), collected through CDP. Used by the page-weight
 * spec and by `npm run bench` (bench/pages.ts).
 */
import type { CDPSession, Page } from '@playwright/test';

export interface Transfer {
  url: string;
  bytes: number;
}

export interface TransferLog {
  cdp: CDPSession;
  /** Everything finished since the log started (or since the last reset). */
  entries(): Transfer[];
  total(filter?: (url: string) => boolean): number;
  reset(): void;
}

export async function recordTransfers(page: Page): Promise<TransferLog> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // No cache: a budget is about the first visit.
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map<string, string>();
  let done: Transfer[] = [];
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => done.push({ url: urls.get(e.requestId) ?? '?', bytes: e.encodedDataLength }));
  return {
    cdp,
    entries: () => [...done],
    total: (filter) => done.filter((t) => !filter || filter(t.url)).reduce((sum, t) => sum + t.bytes, 0),
    reset: () => {
      done = [];
    },
  };
}

/** Chrome DevTools' "Fast 3G" profile (now called "Slow 4G"): 562.5 ms latency, ~1.44 Mbit/s down, ~675 kbit/s up. */
export async function emulateFast3g(cdp: CDPSession) {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 562.5,
    downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9,
    uploadThroughput: ((750 * 1024) / 8) * 0.9,
  });
}

/** Readable bytes for reports and failure messages. */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
