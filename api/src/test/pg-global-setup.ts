/**
 * `TEST_ENGINE=pg` (issue 29): one throwaway PostgreSQL cluster for the whole run, started before
 * the workers and stopped after them; test/harness.ts makes a database per test app from a
 * migrated, seeded template. Nothing happens on the default SQLite run.
 */
import type { TestProject } from 'vitest/node';
import { startPgCluster, type PgCluster } from './pg-server';

let cluster: PgCluster | undefined;

export async function setup(project: TestProject) {
  if (process.env.TEST_ENGINE !== 'pg') return;
  cluster = await startPgCluster();
  project.provide('pgServer', cluster.url(''));
}

export async function teardown() {
  await cluster?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgServer: string;
  }
}
