/** Spreadsheet bombs (security issue item 7): caps on rows and inflated size, answered early with bounded memory. */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { form } from './fixture';
import { bombXlsx } from './zip-fixture';

let t: TestApp;
let million: Promise<Uint8Array> | null = null;
/** A million rows exceljs can read, in about 3 MB (built once: it takes seconds). */
const millionRows = () => (million ??= bombXlsx(1_000_000, { compact: true }));

beforeAll(async () => {
  t = await makeTestApp();
});

const upload = (app: TestApp, buf: Uint8Array) =>
  app.request('POST', '/api/users/import/upload', { token: app.adminToken, body: form(buf, 'bomb.xlsx') });

/**
 * How much RSS grows while `run` is in flight (sampled every 10 ms). The test process also holds
 * the fixtures, so the growth is what the upload costs; a server idles at about 150 MB.
 */
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

describe('upload caps', () => {
  it('the hand-made workbook itself is a valid upload when small', async () => {
    const res = await upload(t, await bombXlsx(20));
    expect(res.status).toBe(201);
    expect(res.body.totalRows).toBe(20);
  });

  it('a 1,000,000-row sheet in a 3 MB file is refused with 413 from its declared size, at once', async () => {
    const buf = await millionRows();
    expect(buf.length).toBeLessThan(4 * 1024 * 1024);
    const started = Date.now();
    const { result: res, growthMb } = await rssGrowth(() => upload(t, buf));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('File Excel quá lớn sau khi giải nén (tối đa 100 MB dữ liệu). Vui lòng chia nhỏ file');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(growthMb).toBeLessThan(100);
  }, 60_000);

  it('a 4 MB file inflating to 780 MB that declares a tiny size is caught while inflating (400), memory bounded', async () => {
    const buf = await bombXlsx(6_000_000, { identical: true, lie: true });
    expect(buf.length).toBeLessThan(5 * 1024 * 1024);
    const started = Date.now();
    const { result: res, growthMb } = await rssGrowth(() => upload(t, buf));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('File bị hỏng');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(growthMb).toBeLessThan(100);
  }, 60_000);

  it('past 50,000 data rows (the default) reading stops with 413 and a Vietnamese message', async () => {
    // A generous size cap, so the row count is what stops this million-row file.
    const roomy = await makeTestApp({ IMPORT_MAX_UNZIPPED_MB: '1000' });
    const buf = await millionRows();
    const started = Date.now();
    const { result: res, growthMb } = await rssGrowth(() => upload(roomy, buf));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('File có quá nhiều dòng: tối đa 50.000 dòng dữ liệu mỗi lần nhập. Vui lòng chia nhỏ file');
    expect(growthMb).toBeLessThan(250);
  }, 60_000);

  it('the caps are configurable (IMPORT_MAX_ROWS, IMPORT_MAX_UNZIPPED_MB)', async () => {
    const small = await makeTestApp({ IMPORT_MAX_ROWS: '100', IMPORT_MAX_UNZIPPED_MB: '1' });
    expect((await upload(small, await bombXlsx(100))).status).toBe(201);
    const rows = await upload(small, await bombXlsx(101));
    expect(rows.status).toBe(413);
    expect(rows.body.message).toContain('tối đa 100 dòng');
    const bytes = await upload(small, await bombXlsx(50, { padding: 30_000 }));
    expect(bytes.status).toBe(413);
    expect(bytes.body.message).toContain('tối đa 1 MB');
  });
});
