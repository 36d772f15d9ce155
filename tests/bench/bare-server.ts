// The baseline: a bare Hono route on @hono/node-server, same runtime as the app.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono().get('/bare', (c) => c.json({ ok: true }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' }, () => console.log('ready'));
