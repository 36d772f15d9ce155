/**
 * What a deployment does once, before any request is served: take the database's deployment lock,
 * migrate, and check the app secret against the stored keys. The single process does it itself; a
 * cluster's primary does it (and the seed) before forking, so workers open a file that is ready.
 */
import type { Db } from '../db/client';
import { closeAppDb, migrateAppDb, openAppDb } from '../db/open';
import { isPg, isPostgresUrl } from '../db/postgres';
import { DatabaseLockedError, lockDatabase } from '../db/process-lock';
import { secretFile, type Env } from '../env';
import { logger } from '../lib/logger';
import { checkAppSecret } from '../payos/secrets';
import { countWrites } from '../lib/writer-gate';

/** Exits the process (status 1) when the file is locked by another deployment or the secret does not fit. */
export async function prepareDeployment(env: Env): Promise<Db> {
  // PostgreSQL is shared by every server of a deployment on purpose: only the SQLite file is locked to one.
  if (!isPostgresUrl(env.DATABASE_URL)) {
    let releaseLock: () => void;
    try {
      releaseLock = lockDatabase(env.DATABASE_PATH);
    } catch (err) {
      if (!(err instanceof DatabaseLockedError)) throw err;
      logger.fatal(err.message);
      process.exit(1);
    }
    process.on('exit', () => releaseLock());
  }
  const db = openAppDb(env);
  // The import worker stands aside between its batches while this thread writes (lib/writer-gate.ts).
  if (!isPg(db)) countWrites(db.$client);
  await migrateAppDb(env, db);
  const secretProblem = env.DATABASE_PATH === ':memory:' ? null : await checkAppSecret(db, env, secretFile(env.DATABASE_PATH, 'app'));
  if (secretProblem) {
    console.error(secretProblem); // for the operator, in plain text on stderr
    await closeAppDb(db);
    process.exit(1);
  }
  return db;
}
