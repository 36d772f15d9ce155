// `npm run backup [-- <folder>]`: a consistent copy of the database (safe while the server runs)
// and its secret files into <folder>/<time>/ (default: backups/ beside the database).
// With DATABASE_URL=postgres://… the database is a pg_dump -Fc archive of that database (api/src/backup/pg.ts).
import { loadConfig } from '../api/src/env.ts';
import { backupDatabase } from '../api/src/backup/backup.ts';
import { backupPg, isPostgresUrl } from '../api/src/backup/pg.ts';

try {
  const config = loadConfig();
  const { dir, manifest } = await (isPostgresUrl(config.DATABASE_URL) ? backupPg : backupDatabase)(config, process.argv[2]);
  console.log(`Backup written to ${dir}`);
  console.log(`  ${[manifest.database, ...manifest.secrets].join(', ')}`);
  for (const name of manifest.fromEnvironment) {
    console.log(`  ${name} comes from the environment and is not in this folder: keep its value with the backup.`);
  }
} catch (err) {
  console.error(`Backup failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
