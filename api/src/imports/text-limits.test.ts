/**
 * Shared-string amplification (issue 25 item 13): one long shared string referenced by every row
 * passed the size caps (a 254 KB file) and became hundreds of MB of session rows. Each cell is
 * capped by its column and the file's text in total, counted while reading, with bounded memory.
 */
import { count } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { form } from './fixture';
import { importSessionRows, importSessions } from '../db/tables/imports';
import { sharedStringXlsx } from './zip-fixture';
import { firstRow } from '../db/engine';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

const upload = (app: TestApp, buf: Uint8Array) =>
  app.request('POST', '/api/users/import/upload', { token: app.adminToken, body: form(buf, 'shared.xlsx') });
const sessions = async (app: TestApp) =>
  (await firstRow(app.db.select({ n: count() }).from(importSessions)))!.n +
  (await firstRow(app.db.select({ n: count() }).from(importSessionRows)))!.n;

/** Peak RSS growth while `run` is in flight, sampled every 10 ms. */
async function rssGrowth<T>(run: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - before) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

describe('text caps of an upload', () => {
  it('a 2,000-character shared family name in 50,000 rows (a small file): 422 naming the cell and column, at once, no session', async () => {
    const buf = await sharedStringXlsx(50_000, 2_000);
    expect(buf.length).toBeLessThan(2 * 1024 * 1024);
    const before = await sessions(t);
    const started = Date.now();
    const { result: res, growthMb } = await rssGrowth(() => upload(t, buf));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'Ô B2 (cột "Họ") dài 2.000 ký tự, vượt giới hạn 300 ký tự của cột này. Vui lòng sửa ô này rồi tải file lên lại',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(growthMb).toBeLessThan(100);
    expect(await sessions(t)).toBe(before);
  }, 60_000);

  it('a 20,000-character shared string: the same early 422, memory bounded', async () => {
    const { result: res, growthMb } = await rssGrowth(async () => upload(t, await sharedStringXlsx(50_000, 20_000)));
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('dài 20.000 ký tự');
    expect(growthMb).toBeLessThan(150);
  }, 60_000);

  it('cells each within their column cap but 100 M characters in all: 413 once the total passes the cap, memory bounded', async () => {
    const buf = await sharedStringXlsx(50_000, 2_000, 'organizationCodes');
    const before = await sessions(t);
    const { result: res, growthMb } = await rssGrowth(() => upload(t, buf));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(
      'File có quá nhiều chữ: tổng nội dung các ô vượt 20.000.000 ký tự (thường do một ô rất dài được lặp lại ở nhiều dòng). Vui lòng rút gọn hoặc chia nhỏ file',
    );
    expect(growthMb).toBeLessThan(150);
    expect(await sessions(t)).toBe(before);
  }, 60_000);

  it('the total is configurable (IMPORT_MAX_TEXT_CHARS); files under both caps upload as before', async () => {
    const small = await makeTestApp({ IMPORT_MAX_TEXT_CHARS: '10000' });
    // 20 rows of a 300-character name and the short columns: about 6,600 characters.
    expect((await upload(small, await sharedStringXlsx(20, 300))).status).toBe(201);
    const res = await upload(small, await sharedStringXlsx(40, 300));
    expect(res.status).toBe(413);
    expect(res.body.message).toContain('vượt 10.000 ký tự');
  });

  it('a name just past the form rule is still a row error to repair, not a refused file', async () => {
    const res = await upload(t, await sharedStringXlsx(3, 101));
    expect(res.status).toBe(201);
    const v = await t.request('GET', `/api/users/import/${res.body.sessionId}/validate`, { token: t.adminToken });
    expect(v.body.summary.invalid).toBe(3);
  });
});
