/**
 * The PostgreSQL table set (db/pg/tables) describes the same tables as SQLite's (db/tables): names,
 * columns (nullability, key, defaults, generated values, type family, enum values), primary keys,
 * unique constraints, indexes (name, columns, uniqueness, condition) and foreign keys. Widths are
 * not compared: PostgreSQL's are chosen per column by the rules in docs/decisions.md.
 */
import { describe, expect, it } from 'vitest';
import { is, SQL, StringChunk, type Column } from 'drizzle-orm';
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { bigint, getTableConfig as pgConfig, index, integer, PgTable, pgTable, text } from 'drizzle-orm/pg-core';
import * as sqliteSchema from '../schema';
import * as pgSchema from './schema';

type Config = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;

function family(column: Column): string {
  switch (column.columnType) {
    case 'SQLiteInteger':
    case 'PgInteger':
    case 'PgBigInt53':
      return 'integer';
    case 'SQLiteText':
    case 'PgText':
      return 'text';
    case 'SQLiteBoolean':
    case 'PgBoolean':
      return 'boolean';
    case 'SQLiteTimestamp':
      return 'instant';
    case 'PgCustomColumn':
      if (column.mapFromDriverValue('0') instanceof Date) return 'instant';
      if (column.getSQLType().startsWith('text')) return 'text';
  }
  return `unmapped ${column.columnType}`;
}

/** An index condition or default as text: the engines' SQL objects differ, their words must not. */
function sqlText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!is(value, SQL)) return JSON.stringify(value);
  return value.queryChunks.map((chunk) => (is(chunk, StringChunk) ? chunk.value.join('') : `[${(chunk as Column).name}]`)).join('');
}

function describeColumn(column: Column) {
  const generated = column.generated as { type?: string } | undefined;
  return {
    notNull: column.notNull,
    primary: column.primary,
    family: family(column),
    enumValues: column.enumValues ?? null,
    default: sqlText(column.default) ?? null,
    defaultFn: Boolean(column.defaultFn),
    onUpdateFn: Boolean(column.onUpdateFn),
    // SQLite's AUTOINCREMENT and PostgreSQL's identity both number the rows themselves.
    ownId: Boolean((column as { autoIncrement?: boolean }).autoIncrement) || Boolean(column.generatedIdentity),
    // The expression is each engine's own (db/term.ts, db/pg/term.ts); that there is one is compared.
    generated: generated?.type ?? null,
    unique: column.isUnique,
  };
}

function describeTable(config: Config) {
  const names = (columns: Column[]) => columns.map((c) => c.name);
  return {
    columns: Object.fromEntries(config.columns.map((c) => [c.name, describeColumn(c)])),
    primaryKeys: config.primaryKeys.map((pk) => names(pk.columns)),
    uniqueConstraints: config.uniqueConstraints.map((u) => ({ name: u.name ?? null, columns: names(u.columns) })),
    indexes: Object.fromEntries(
      config.indexes.map(({ config: ix }) => [
        ix.name,
        {
          unique: ix.unique,
          columns: ix.columns.map((c) => (is(c, SQL) ? sqlText(c) : (c as Column).name)),
          where: sqlText(ix.where) ?? null,
        },
      ]),
    ),
    foreignKeys: config.foreignKeys
      .map((fk) => {
        const ref = fk.reference();
        const table = is(ref.foreignTable, PgTable) ? pgConfig(ref.foreignTable).name : sqliteConfig(ref.foreignTable as SQLiteTable).name;
        return `${names(ref.columns)} -> ${table}(${names(ref.foreignColumns)}) on delete ${fk.onDelete ?? 'no action'}, update ${fk.onUpdate ?? 'no action'}`;
      })
      .sort(),
    checks: config.checks.map((c) => c.name).sort(),
  };
}

const sqliteTables = new Map(
  Object.values(sqliteSchema)
    .filter((t) => is(t, SQLiteTable))
    .map((t) => [sqliteConfig(t).name, describeTable(sqliteConfig(t))]),
);
const pgTables = new Map(
  Object.values(pgSchema)
    .filter((t) => is(t, PgTable))
    .map((t) => [pgConfig(t).name, describeTable(pgConfig(t))]),
);

describe('PostgreSQL and SQLite table sets', () => {
  it('hold the same tables', () => {
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
    expect(sqliteTables.size).toBeGreaterThan(40);
  });

  it('describe every table alike', () => {
    for (const [name, sqlite] of sqliteTables) expect({ [name]: pgTables.get(name) }).toEqual({ [name]: sqlite });
  });

  it('map every column to a known type family', () => {
    const unmapped = [...pgTables, ...sqliteTables].flatMap(([table, d]) =>
      Object.entries(d.columns)
        .filter(([, c]) => c.family.startsWith('unmapped'))
        .map(([column, c]) => `${table}.${column}: ${c.family}`),
    );
    expect(unmapped).toEqual([]);
  });

  it('tells a drifted table apart', () => {
    // payos_sandbox_links as it might drift: a column made nullable, an index forgotten, a column added.
    const drifted = pgTable('payos_sandbox_links', {
      id: text().primaryKey(),
      clientId: text(),
      orderCode: bigint({ mode: 'number' }).notNull(),
      checksumKeyEnc: text().notNull(),
      data: text().notNull(),
      extra: integer(),
    });
    const renamedIndex = pgTable(
      'payos_sandbox_links',
      {
        id: text().primaryKey(),
        clientId: text().notNull(),
        orderCode: integer().notNull(),
        checksumKeyEnc: text().notNull(),
        data: text().notNull(),
      },
      (t) => [index('payos_sandbox_links_code_idx').on(t.orderCode)],
    );
    const expected = sqliteTables.get('payos_sandbox_links')!;
    expect(pgTables.get('payos_sandbox_links')).toEqual(expected);
    const a = describeTable(pgConfig(drifted));
    expect(a).not.toEqual(expected);
    expect(a.columns.clientId.notNull).toBe(false);
    expect(a.columns.extra).toBeDefined();
    expect(a.indexes).toEqual({});
    expect(describeTable(pgConfig(renamedIndex))).not.toEqual(expected);
  });
});
