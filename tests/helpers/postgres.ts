/**
 * `E2E_DATABASE=pg` (issue 29 item 6): the journeys' servers run on PostgreSQL. global-setup.ts
 * starts one throwaway cluster for the run (the API tests' api/src/test/pg-server.ts) and hands its
 * address to the workers in E2E_PG_SERVER; startServer() gives each server a fresh empty database
 * of it, which the API migrates and seeds itself on start. Without E2E_DATABASE nothing changes:
 * every server has its own SQLite file.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PG_BIN, startPgCluster } from '../../api/src/test/pg-server';

const run = promisify(execFile);

export const onPostgres = process.env.E2E_DATABASE === 'pg';

/** Starts the run's cluster (in global setup, before the workers) and answers how to stop it. */
export async function startE2ePostgres(): Promise<() => Promise<void>> {
  const cluster = await startPgCluster();
  // Workers are started after global setup and inherit its environment.
  process.env.E2E_PG_SERVER = cluster.url('');
  return () => cluster.stop();
}

let databases = 0;

/** A new empty database of the run's cluster: its postgres:// URL. */
export async function freshDatabase(): Promise<string> {
  const server = process.env.E2E_PG_SERVER;
  if (!server) throw new Error('E2E_DATABASE=pg without a cluster: tests/global-setup.ts starts it (run through playwright test)');
  const name = `e2e_${process.pid}_${++databases}`;
  // createdb connects over TCP like the API (trust authentication): no runuser, no client library here.
  await run(join(PG_BIN, 'createdb'), [`--maintenance-db=${server}postgres`, name]);
  return `${server}${name}`;
}
