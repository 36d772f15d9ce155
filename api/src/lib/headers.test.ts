import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHeader } from './headers';

const app = new Hono().get('/h', (c) =>
  c.json({
    auth: requestHeader(c, 'authorization') ?? null,
    lang: requestHeader(c, 'accept-language') ?? null,
    missing: requestHeader(c, 'x-none') ?? null,
  }),
);
let server: ServerType;
let base: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      base = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('requestHeader', () => {
  it('reads headers from Node over real HTTP, case-insensitively by their lower-case name', async () => {
    const res = await fetch(`${base}/h`, { headers: { Authorization: 'Bearer abc', 'Accept-Language': 'en-US,en;q=0.9' } });
    expect(await res.json()).toEqual({ auth: 'Bearer abc', lang: 'en-US,en;q=0.9', missing: null });
  });

  it('falls back to the Fetch request without Node (app.request)', async () => {
    const res = await app.request('/h', { headers: { Authorization: 'Bearer xyz' } });
    expect(await res.json()).toEqual({ auth: 'Bearer xyz', lang: null, missing: null });
  });
});
