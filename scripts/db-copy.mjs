// `npm run db:copy -- <sqlite file> <postgres url>`: moves a deployment's SQLite database into an
// empty PostgreSQL database (api/src/backup/db-copy.ts). Refused while a server runs on the file (its deployment lock).
import { copySqliteToPg } from '../api/src/backup/db-copy.ts';
import { redactUrl } from '../api/src/db/postgres.ts';

const [from, url] = process.argv.slice(2);
if (!from || !url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error('Usage: npm run db:copy -- <sqlite file> <postgres://user:password@host:port/database>');
  process.exit(1);
}
console.log(`Copying ${from} into ${redactUrl(url)}`);
try {
  const summary = await copySqliteToPg(from, url, { log: (line) => console.log(line) });
  for (const s of summary.skipped) console.log(`  skipped ${s.name}: ${s.why}`);
  for (const c of summary.checks.filter((c) => c.name.endsWith('checksum'))) console.log(`  checked ${c.detail}`);
  const rows = summary.tables.reduce((n, t) => n + t.rows, 0);
  console.log(`Copied ${rows} rows in ${summary.tables.length} tables; every table's row count matches. Committed.`);
} catch (err) {
  console.error(`Copy failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
