/**
 * db/ is what every domain imports, so it may import only the driver, drizzle, node, env and the
 * table definitions (tables/<domain>.ts); seeds and services live above it (src/seed/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const ALLOWED = [/^\.\/(tables\/)?[\w-]+$/, /^\.\.\/env$/, /^drizzle-orm(\/|$)/, /^better-sqlite3$/, /^node:/];

describe('api/src/db', () => {
  it('depends on no domain beyond its tables', () => {
    const offending: string[] = [];
    for (const file of readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const text = readFileSync(join(here, file), 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s+'([^']+)'/g))
        if (!ALLOWED.some((re) => re.test(spec!))) offending.push(`${file}: ${spec}`);
    }
    expect(offending).toEqual([]);
  });
});
