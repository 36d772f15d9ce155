# Manual edits applied BEFORE the codemod (type-level changes the propagation then follows).
import sys
root = sys.argv[1] + '/api/'
def sub(f, a, b):
    s = open(root + f).read()
    if b in s: return
    if a not in s:
        print("pre: skipped", f, a[:50]); return
    open(root + f, 'w').write(s.replace(a, b, 1))
sub('src/lib/totals.ts', "export function cachedTotal(db: Db, tables: readonly Table[], filterKey: string, count: () => number): number {",
    "export function cachedTotal(db: Db, tables: readonly Table[], filterKey: string, count: () => Promise<number>): Promise<number> {")
sub('src/lib/freshness.ts', """    get(db: Db, key: string, build: () => T): T {
      if (db.$client.inTransaction) return build();
      const stamp = versionStamp(db, tables);
      let c = perDb.get(db);
      if (!c || c.stamp !== stamp) perDb.set(db, (c = { stamp, entries: new Map() }));
      const hit = c.entries.get(key);
      if (hit !== undefined) return hit;
      const value = build();
""", """    async get(db: Db, key: string, build: () => Promise<T>): Promise<T> {
      if (db.$client.inTransaction) return build();
      const stamp = versionStamp(db, tables);
      let c = perDb.get(db);
      if (!c || c.stamp !== stamp) perDb.set(db, (c = { stamp, entries: new Map() }));
      const hit = c.entries.get(key);
      if (hit !== undefined) return hit;
      const value = await build();
      // Kept only if nothing it read changed while it was built (a write of another request may run between its statements).
      if (db.$client.inTransaction || versionStamp(db, tables) !== stamp || perDb.get(db) !== c) return value;
""")
sub('src/imports/kind.ts', "write: (tx: Tx, row: CheckedRow<D>, options: ImportOptions, actor: Actor, params: Record<string, unknown>) => Outcome;",
    "write: (tx: Tx, row: CheckedRow<D>, options: ImportOptions, actor: Actor, params: Record<string, unknown>) => Promise<Outcome>;")
sub('src/imports/kind.ts', "writeBatch?: (tx: Tx, rows: CheckedRow<D>[], options: ImportOptions, actor: Actor, params: Record<string, unknown>) => Outcome[];",
    "writeBatch?: (tx: Tx, rows: CheckedRow<D>[], options: ImportOptions, actor: Actor, params: Record<string, unknown>) => Promise<Outcome[]>;")
sub('src/imports/lookups.ts', """export function whereIn<R>(values: string[], column: SQLiteColumn | SQL, query: (cond: SQL) => R[]): R[] {
  const uniq = [...new Set(values.filter(Boolean))];
  return uniq.length === 0 ? [] : query(inJsonValues(column, uniq));""", """export async function whereIn<R>(values: string[], column: SQLiteColumn | SQL, query: (cond: SQL) => Promise<R[]>): Promise<R[]> {
  const uniq = [...new Set(values.filter(Boolean))];
  return uniq.length === 0 ? [] : query(inJsonValues(column, uniq));""")
sub('src/imports/kinds/users.ts', """async function slicedWhereIn<R>(values: string[], lookup: (chunk: string[]) => R[]): Promise<R[]> {
  const out: R[] = [];
  for (const chunk of chunked([...new Set(values.filter(Boolean))])) {
    out.push(...lookup(chunk));""", """async function slicedWhereIn<R>(values: string[], lookup: (chunk: string[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const chunk of chunked([...new Set(values.filter(Boolean))])) {
    out.push(...(await lookup(chunk)));""")
sub('src/imports/session.ts', "export function loadSession(db: Db, id: string, kind: ImportKind, actorId: number): ImportSession;", "export function loadSession(db: Db, id: string, kind: ImportKind, actorId: number): Promise<ImportSession>;")
sub('src/imports/session.ts', "export function loadSession(db: Db, id: string, kind: ImportKind, actorId: number, withRows: false): ImportSessionMeta;", "export function loadSession(db: Db, id: string, kind: ImportKind, actorId: number, withRows: false): Promise<ImportSessionMeta>;")
for f in ['src/payos-sandbox/sandbox.test.ts', 'src/payments/money.test.ts']:
    sub(f, "async function eventually(ok: () => boolean, ms = 5_000) {\n  const end = Date.now() + ms;\n  while (!ok()) {",
        "async function eventually(ok: () => Promise<boolean>, ms = 5_000) {\n  const end = Date.now() + ms;\n  while (!(await ok())) {")
sub('src/departments/authz.fixture.ts', "  fresh: () => number,", "  fresh: () => Promise<number>,")
sub('src/organizations/officers.test.ts', "let role: (name: string) => number;", "let role: (name: string) => Promise<number>;")
sub('src/audit/labels.ts', """  // A transaction object has rollback(); the bare database does not and is never cached (names change between requests).
  const cache = 'rollback' in db ? (perTransaction.get(db) ?? new Map<string, string | null>()) : new Map<string, string | null>();
  if ('rollback' in db) perTransaction.set(db, cache);""", """  // Kept for the transaction it is asked in (db/engine.ts); outside one never (names change between requests).
  const tx = currentTransaction();
  const cache = tx ? (perTransaction.get(tx) ?? new Map<string, string | null>()) : new Map<string, string | null>();
  if (tx) perTransaction.set(tx, cache);""")
sub('src/audit/labels.ts', "import { users } from '../db/tables/users';\n", "import { users } from '../db/tables/users';\nimport { currentTransaction } from '../db/engine';\n")
