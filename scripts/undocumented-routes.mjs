// `npm run lint` stage: builds the app on an empty in-memory database and fails when a mounted /api
// route declares no answer (ok()/created()/xlsx()/redirect() from api/src/lib/openapi/contract.ts),
// so /api/docs cannot miss a route.
import { createApp } from '../api/src/app.ts';
import { openDb } from '../api/src/db/client.ts';
import { runMigrations } from '../api/src/db/migrate.ts';
import { testEnv } from '../api/src/env.ts';
import { undocumented } from '../api/src/lib/openapi/check.ts';

const db = openDb(':memory:');
runMigrations(db);
const missing = undocumented(createApp({ db, env: testEnv() }, { adminDist: '/nonexistent', portalDist: '/nonexistent' }).routes);
db.$client.close();
if (missing.length) {
  console.error(`Routes without a declared answer (add ok()/created()/… from lib/openapi/contract.ts to each):\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
