import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentFrame, inFrame, type PgFrame } from './async-frame';

describe('the async frame', () => {
  it('keeps what an outer frame set, across awaits, and drops a part only where it is cleared', async () => {
    const tx = { savepoints: 0 };
    const pgTx = { client: {}, savepoints: 0 } as unknown as PgFrame;
    expect(currentFrame()).toBeUndefined();
    await inFrame({ epoch: 7 }, async () => {
      await Promise.resolve();
      expect(currentFrame()).toEqual({ epoch: 7 });
      await inFrame({ sqlite: tx }, async () => {
        await new Promise((r) => setImmediate(r));
        expect(currentFrame()).toEqual({ epoch: 7, sqlite: tx });
      });
      await inFrame({ pg: pgTx }, async () => {
        expect(currentFrame()?.pg).toBe(pgTx);
        await inFrame({ pg: undefined }, async () => {
          await Promise.resolve();
          expect(currentFrame()?.pg).toBeUndefined();
          expect(currentFrame()?.epoch).toBe(7);
        });
        expect(currentFrame()?.pg).toBe(pgTx);
      });
      expect(currentFrame()).toEqual({ epoch: 7 });
    });
    expect(currentFrame()).toBeUndefined();
  });

  it('is the only AsyncLocalStorage the API creates (each more costs every promise of every request)', () => {
    const root = join(__dirname, '..');
    const creators: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && readFileSync(p, 'utf8').includes('new AsyncLocalStorage'))
          creators.push(p.slice(root.length + 1));
      }
    };
    walk(root);
    expect(creators).toEqual(['db/async-frame.ts']);
  });
});
