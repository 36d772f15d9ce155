/**
 * Issue 28, robustness of the built cluster (WEB_CONCURRENCY=2) under a steady stream of requests
 * from keep-alive clients and from clients opening a connection per request:
 * - kill -9 of a worker costs only the requests it was serving at that instant: no request waits
 *   for the dead process (a connection handed to it before the primary saw the death used to hang),
 *   every request sent 2 s after the kill is answered 200, the worker is replaced, and mark-paids of
 *   one fee fired at both workers around the kill pay it once (or leave it unpaid and retry-able);
 * - SIGTERM of one worker drains it: its request in flight is answered, the stream goes on to the
 *   other worker without a failure, and the drained worker is replaced;
 * - SIGTERM of the primary: a request in flight is answered, new connections are refused, and a
 *   request that never completes does not hold the exit beyond the drain's bound.
 */
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { form, UNTHROTTLED, USER_HEADER, userRow, xlsx } from '../imports/fixture';
import { startBuiltCluster, type BuiltCluster } from './built-fixture';
import { DRAIN_GRACE_MS } from './drain';
import { portClosed } from './sockets.fixture';

const FEE = 24_000;
const FEES = 10;
let server: BuiltCluster;
let admin = '';
// Process behaviour (dispatch, drains, restarts): the TEST_ENGINE=pg pass runs kill.test.ts (a kill -9 during
// payments and an import on PostgreSQL) and payments/concurrency.test.ts instead of timing these again.
const PROCESS_ONLY = process.env.TEST_ENGINE === 'pg';

beforeAll(async () => {
  if (PROCESS_ONLY) return;
  server = await startBuiltCluster({ ...UNTHROTTLED });
  admin = (await server.must('POST', '/api/auth/login', undefined, { email: 'admin@doanhoi.local', password: 'admin123' })).accessToken;
}, 120_000);

afterAll(() => server?.stop());

interface Sent {
  client: number;
  sentAt: number;
  ms: number;
  status: number; // 0: the connection failed
}

/** One GET through `agent` (undefined: a connection of its own, closed after the answer); no answer within 15 s counts as a hang. */
function get(path: string, agent: Agent | undefined): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`${server.base}${path}`, {
      agent: agent ?? false,
      headers: { authorization: `Bearer ${admin}`, ...(agent ? {} : { connection: 'close' }) },
      timeout: 15_000,
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** `keepAlive` clients on persistent connections and `fresh` ones opening one per request, each sending back to back until stopped. */
function stream(keepAlive: number, fresh: number) {
  const sent: Sent[] = [];
  let stopped = false;
  const agents = Array.from({ length: keepAlive }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const clients = Array.from({ length: keepAlive + fresh }, async (_, client) => {
    while (!stopped) {
      const sentAt = Date.now();
      const status = await get('/api/auth/me/profile', agents[client]);
      sent.push({ client, sentAt, ms: Date.now() - sentAt, status });
      await new Promise((r) => setTimeout(r, 5));
    }
  });
  return {
    sent,
    async stop() {
      stopped = true;
      await Promise.all(clients);
      for (const a of agents) a.destroy();
    },
  };
}

async function replacementOf(gone: number, before: number[]): Promise<number> {
  const after = await server.until(
    'a replacement worker',
    () => {
      const now = server.workers();
      return now.length === 2 && !now.includes(gone) ? now : undefined;
    },
    60_000,
  );
  const fresh = after.filter((p) => !before.includes(p));
  expect(fresh).toHaveLength(1);
  return fresh[0]!;
}

/** Members with one fee each in an active campaign, for mark-paid. */
async function fees(code: string, n: number): Promise<number[]> {
  const { must } = server;
  const org = await must('POST', '/api/organizations', admin, { name: `Đoàn ${code}`, code, type: 'doan_truong' });
  const codes = Array.from({ length: n }, (_, i) => `${code}${String(i).padStart(3, '0')}`);
  const file = await xlsx(
    USER_HEADER,
    codes.map((c) =>
      userRow({ code: c, familyName: 'Phạm', givenName: c, email: `${c.toLowerCase()}@stream.vn`, organizationCodes: code }),
    ),
  );
  const up = await must('POST', '/api/users/import/upload', admin, form(file));
  expect((await must('POST', `/api/users/import/${up.sessionId}/execute`, admin, { options: {} })).importedCount).toBe(n);
  const users = (await must('GET', `/api/users?search=${code}&limit=100`, admin)).users as { id: number; code: string }[];
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const campaign = await must('POST', '/api/payment-campaigns', admin, {
    organizationId: org.id,
    name: `Đoàn phí ${code}`,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  const level = await must('POST', '/api/payment-fee-levels', admin, { campaignId: campaign.id, levelName: 'Mức chuẩn', amount: FEE });
  const ids: number[] = [];
  for (const u of users.filter((u) => codes.includes(u.code)))
    ids.push(
      (await must('POST', '/api/payment/assignments', admin, { campaignId: campaign.id, userId: u.id, feeLevelId: level.id })).data.id,
    );
  expect(ids).toHaveLength(n);
  await must('POST', `/api/payment-campaigns/${campaign.id}/activate`, admin, {});
  return ids;
}

it.skipIf(PROCESS_ONLY)(
  'kill -9 of a worker: no request waits for it, every request 2 s on is answered, it is replaced, each fee paid once',
  async () => {
    const { api, workers, read, value } = server;
    const assignments = await fees('STK', FEES);
    const s = stream(6, 2);
    await new Promise((r) => setTimeout(r, 1_000));
    const before = workers();
    const victim = before[0]!;
    // Mark-paid twice per fee at once (two connections, so the two workers), spread around the kill.
    const killAt = Date.now() + 60;
    const paying = assignments.map(async (id, i) => {
      await new Promise((r) => setTimeout(r, i * 15));
      return Promise.all([0, 1].map(() => api('PATCH', `/api/payment/assignments/${id}/mark-paid`, admin, { method: 'cash' })));
    });
    await new Promise((r) => setTimeout(r, killAt - Date.now()));
    process.kill(victim, 'SIGKILL');
    const killedAt = Date.now();
    const payAnswers = await Promise.all(paying);
    await replacementOf(victim, before);
    await new Promise((r) => setTimeout(r, 2_500));
    await s.stop();

    const after = s.sent.filter((r) => r.sentAt >= killedAt);
    // Nothing hangs: each request sent after the kill is answered, or fails, at once.
    expect(after.filter((r) => r.ms > 2_000)).toEqual([]);
    expect(after.filter((r) => r.sentAt >= killedAt + 2_000 && r.status !== 200)).toEqual([]);
    // Only what the victim held at that instant fails: at most one request per client.
    const failed = s.sent.filter((r) => r.status !== 200 && r.sentAt + r.ms >= killedAt);
    expect(failed.length).toBeLessThanOrEqual(8);
    expect(new Set(failed.map((r) => r.client)).size).toBe(failed.length);
    expect(s.sent.filter((r) => r.sentAt >= killedAt + 2_000).length).toBeGreaterThan(20);

    // Each fee: paid by at most one of its two clicks; one still unpaid is paid by a retry.
    for (const [i, answers] of payAnswers.entries()) {
      expect(answers.filter((a) => a.status === 200).length, `fee ${assignments[i]}`).toBeLessThanOrEqual(1);
      if (!answers.some((a) => a.status === 200)) {
        const retry = await api('PATCH', `/api/payment/assignments/${assignments[i]}/mark-paid`, admin, { method: 'cash' });
        expect([200, 409], `retry of fee ${assignments[i]}`).toContain(retry.status);
      }
    }
    for (const id of assignments) {
      const paid = await value("SELECT count(*) FROM payment_orders WHERE assignment_id = ? AND status = 'PAID'", id);
      const [fee] = await read('SELECT status, paid_amount AS "paidAmount" FROM payment_assignments WHERE id = ?', id);
      expect({ id, paid, fee }).toEqual({ id, paid: 1, fee: { status: 'PAID', paidAmount: FEE } });
    }
  },
  120_000,
);

it.skipIf(PROCESS_ONLY)(
  'SIGTERM of one worker: its request in flight is answered, the stream moves to the other without a failure, it is replaced',
  async () => {
    const { workers, output } = server;
    const s = stream(4, 2);
    await new Promise((r) => setTimeout(r, 500));
    const before = workers();
    // A login whose body is half sent: in flight on whichever worker took the connection.
    const body = JSON.stringify({ email: 'admin@doanhoi.local', password: 'admin123' });
    const sock: Socket = connect(new URL(server.base).port as unknown as number, '127.0.0.1');
    await once(sock, 'connect');
    sock.write(`POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    sock.write(body.slice(0, 10));
    const holder = await server.until('the half-sent request to reach a worker', () => ownerOf(sock, before));
    process.kill(holder, 'SIGTERM');
    const answer = once(sock, 'data');
    await new Promise((r) => setTimeout(r, 300));
    sock.write(body.slice(10));
    const [chunk] = (await answer) as [Buffer];
    expect(chunk.toString()).toMatch(/^HTTP\/1\.1 200/);
    sock.destroy();
    await replacementOf(holder, before);
    await new Promise((r) => setTimeout(r, 1_000));
    await s.stop();
    expect(s.sent.filter((r) => r.status !== 200)).toEqual([]);
    expect(output()).toContain('An API worker stopped; starting another');
  },
  120_000,
);

it.skipIf(PROCESS_ONLY)(
  'SIGTERM of the primary: the request in flight is answered, new connections are refused, a stalled one does not hold the exit',
  async () => {
    const port = Number(new URL(server.base).port);
    const body = JSON.stringify({ email: 'admin@doanhoi.local', password: 'admin123' });
    const head = `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const inFlight = connect(port, '127.0.0.1');
    const stalled = connect(port, '127.0.0.1');
    await Promise.all([once(inFlight, 'connect'), once(stalled, 'connect')]);
    inFlight.write(head + body.slice(0, 10));
    stalled.write(head + body.slice(0, 10)); // never completed
    await server.until('both requests to reach a worker', () =>
      ownerOf(inFlight, server.workers()) && ownerOf(stalled, server.workers()) ? true : undefined,
    );
    const primary = server.primary;
    const exited = once(primary, 'exit');
    const termAt = Date.now();
    primary.kill('SIGTERM');
    await server.until('the port to close', () => portClosed(port), 10_000);
    const answer = once(inFlight, 'data');
    inFlight.write(body.slice(10));
    const [chunk] = (await answer) as [Buffer];
    expect(chunk.toString()).toMatch(/^HTTP\/1\.1 200/);
    inFlight.destroy();
    const [code] = (await exited) as [number];
    expect(code).toBe(0);
    // The stalled request is cut at the drain's bound, and the exit follows it.
    expect(Date.now() - termAt).toBeLessThan(DRAIN_GRACE_MS + 5_000);
    stalled.destroy();
  },
  120_000,
);

/** The pid among `pids` holding the server end of `sock` (its client port), read from /proc. */
function ownerOf(sock: Socket, pids: number[]): number | undefined {
  return server.socketOwner(sock.localPort!, pids);
}
