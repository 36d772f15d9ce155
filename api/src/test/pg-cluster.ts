/** A throwaway PostgreSQL cluster around a describe block (the server itself: test/pg-server.ts). */
import { afterAll, beforeAll } from 'vitest';
import { startPgCluster, type PgCluster } from './pg-server';

/** Starts a cluster before the tests of the enclosing describe and stops it after them; answers a getter for it. */
export function usePgCluster(): () => PgCluster {
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 30_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => cluster!;
}
