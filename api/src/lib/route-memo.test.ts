import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { MemoRouter } from './route-memo';

function usersApp() {
  const app = new Hono({ router: new MemoRouter() });
  app.use('*', async (c, next) => {
    await next();
    c.header('x-seen', 'yes');
  });
  app.get('/users/template', (c) => c.text('template'));
  app.get('/users/:id', (c) => c.text(`user ${c.req.param('id')}`));
  app.delete('/users/bulk-delete', (c) => c.text('bulk'));
  app.delete('/users/:id', (c) => c.text(`deleted ${c.req.param('id')}`));
  return app;
}

describe('MemoRouter', () => {
  it('answers each path as Hono routes it, the second time from the kept answer', async () => {
    const app = usersApp();
    for (let round = 0; round < 2; round++) {
      expect(await (await app.request('/users/template')).text()).toBe('template');
      expect(await (await app.request('/users/7')).text()).toBe('user 7');
      expect(await (await app.request('/users/8')).text()).toBe('user 8');
      expect(await (await app.request('/users/bulk-delete', { method: 'DELETE' })).text()).toBe('bulk');
      expect(await (await app.request('/users/9', { method: 'DELETE' })).text()).toBe('deleted 9');
      const res = await app.request('/users/7');
      expect(res.headers.get('x-seen')).toBe('yes');
      expect((await app.request('/nothing')).status).toBe(404);
    }
  });

  it('keeps answering correctly past the number of paths it keeps', async () => {
    const app = usersApp();
    for (let id = 1; id <= 2_500; id++) expect(await (await app.request(`/users/${id}`)).text()).toBe(`user ${id}`);
    expect(await (await app.request('/users/3')).text()).toBe('user 3');
  });
});
