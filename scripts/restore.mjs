// `npm run restore -- <backup folder>`: puts a backup's database and secret files back in place.
// Refuses while the server runs, and checks the whole folder (known file names only) before touching
// anything; the replaced files are moved aside, never deleted, and put back if the swap fails.
// With DATABASE_URL=postgres://… the backup's pg_dump archive replaces that database in one transaction (api/src/backup/pg.ts).
import { loadConfig } from '../api/src/env.ts';
import { restoreDatabase } from '../api/src/backup/backup.ts';
import { isPostgresUrl, restorePg } from '../api/src/backup/pg.ts';

const from = process.argv[2];
if (!from) {
  console.error('Usage: npm run restore -- <backup folder>   (a folder written by npm run backup)');
  process.exit(1);
}
try {
  const config = loadConfig();
  const result = isPostgresUrl(config.DATABASE_URL) ? await restorePg(config, from) : await restoreDatabase(config, from);
  console.log(`Restored ${result.restored.join(', ')}`);
  if (result.previousDir) console.log(`  The files it replaced are in ${result.previousDir}`);
  if (!result.secretMatches) {
    console.error('  Warning: the app secret now in effect cannot read the payOS keys in this database.');
    console.error('  Set APP_SECRET to the value used when the backup was taken (the server will not start otherwise).');
    process.exit(2);
  }
  console.log('  Start the server again with npm start.');
} catch (err) {
  console.error(`Restore failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
