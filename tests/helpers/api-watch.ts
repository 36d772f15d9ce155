/**
 * What the page asked of the API, for checks that something did not happen (no error toast, no
 * refused or "not found" call): they run once every request the page started has been answered,
 * rather than after a fixed sleep that a slow machine can outlast.
 */
import { expect, type Page, type Request } from '@playwright/test';

export interface Answer {
  method: string;
  path: string;
  status: number;
}

export function watchApi(page: Page) {
  const open = new Set<Request>();
  const answers: Answer[] = [];
  const isApi = (r: Request) => new URL(r.url()).pathname.startsWith('/api/');
  page.on('request', (r) => {
    if (isApi(r)) open.add(r);
  });
  page.on('response', (res) => {
    if (isApi(res.request())) answers.push({ method: res.request().method(), path: new URL(res.url()).pathname, status: res.status() });
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));

  return {
    answers,
    /**
     * Resolves once no API request is in flight on two looks in a row: a request that a render
     * starts from an answer is on the wire within a frame of it, well inside the gap between looks.
     */
    async settled() {
      let quiet = 0;
      await expect
        .poll(() => (quiet = open.size === 0 ? quiet + 1 : 0), {
          message: 'API requests still in flight',
          intervals: [250],
          timeout: 30_000,
        })
        .toBeGreaterThanOrEqual(2);
    },
    /** The answers from `from` (an earlier answers.length) on with a status of 400 or more. */
    errorsSince(from = 0) {
      return answers.slice(from).filter((a) => a.status >= 400);
    },
  };
}
