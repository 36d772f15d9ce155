/**
 * The trigger-kept figures on PostgreSQL (drizzle-pg's figures migrations) agree with SQLite's row by
 * row: the same seeded random writes (trigger-ops.fixture.ts) run on a fresh database of each engine, then every
 * figures table is compared, and both are compared with a recount from the base tables.
 */
import { describe, expect, it } from 'vitest';
import { comparisonUnavailable } from '../../test/pg-server';
import { usePgCluster } from '../../test/pg-cluster';
import { randomOps } from './trigger-ops.fixture';
import { engines, expectIndexedUnits, expectReportsRecounted, FIGURED, FIGURES, RECOUNTS } from './trigger-figures.fixture';

const missing = comparisonUnavailable();
if (missing) console.warn(`Skipping the PostgreSQL trigger test: ${missing}`);

describe.skipIf(missing)('PostgreSQL figures triggers', () => {
  const cluster = usePgCluster();

  for (const seed of [1, 2, 3]) {
    it(`keep the same figures on both engines (seed ${seed})`, async () => {
      const { sqlite, client, both } = await engines(cluster(), `figures_${seed}`);
      try {
        let checks = 0;
        for (const op of randomOps(seed, 400)) {
          const [a, b] = [op('sqlite'), op('pg')];
          sqlite.$client.exec(a);
          await client.query(b);
          if (op.check) {
            checks++;
            await expectReportsRecounted(both, `after ${b}`);
          }
        }
        expect(checks).toBeGreaterThan(20);
        for (const [table, columns] of Object.entries(FIGURES)) {
          const text = `SELECT ${columns} FROM ${table} ORDER BY ${columns}`;
          const [lite, post] = [both.sqlite(text), await both.pg(text)];
          expect(lite.length, table).toBeGreaterThan(0);
          expect({ [table]: post }).toEqual({ [table]: lite });
        }
        for (const [kind, text] of Object.entries(RECOUNTS)) {
          const figured = FIGURED[kind as keyof typeof FIGURED];
          expect({ [kind]: both.sqlite(figured) }).toEqual({ [kind]: both.sqlite(text) });
          expect({ [kind]: await both.pg(figured) }).toEqual({ [kind]: await both.pg(text) });
        }
        await expectIndexedUnits(client, sqlite);
      } finally {
        await client.end();
        sqlite.$client.close();
      }
    }, 60_000);
  }
});
