import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../env';

/** A JSON file of data/seed (default roles, the demo university). */
export function readSeedFile<T>(name: string): T {
  return JSON.parse(readFileSync(resolve(REPO_ROOT, 'data/seed', name), 'utf8')) as T;
}
