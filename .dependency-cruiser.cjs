/* global module */
/**
 * The API's layers (docs/architecture.md), held by `npm run lint` and npm test's depcruise stage:
 * an import may only point down. Top to bottom: the entry files (index.ts, app.ts, cluster/, seed/,
 * backup/) → the domains, in DOMAINS' order → access/ → lib/, db/ and env.ts → the shared package.
 * Tests, fixtures and the test harness may reach anything (they build the whole app).
 */
const SRC = '^api/src/';
const TESTS = ['\\.test\\.ts$', '^api/src/test/', 'fixture\\.ts$', 'test-helpers\\.ts$'];

// Top to bottom: a domain may import the domains after it, never one before it.
const DOMAINS = [
  'auth', // sign-in, sessions, profile: uses users, reminders' mailer, payOS origins
  'imports', // spreadsheet imports: writes users and memberships, runs exports in its worker
  'exports', // spreadsheet exports: reads the users list and search
  'transfers', // moving a member between units: ends and starts memberships, takes roles away
  'users', // the people: lists, bulk edit, history; ends memberships, revokes roles
  'organizations', // the unit tree, memberships and their endings
  'roles', // roles, permissions, role links
  'dashboard',
  'remittances', // what each level passes up: dues rates, payments' rules
  'reports',
  'dues', // Đoàn phí: generates payment campaigns
  'reminders', // fee reminders by e-mail
  'payments', // campaigns, fees, orders, payOS webhooks
  'payos-sandbox', // the in-process payOS for demos and tests
  'payos', // the payOS client, signatures, origins, secrets
  'classes',
  'departments',
  'audit', // the audit log and its writer, which every domain above calls
];

const ENTRY = `${SRC}(index\\.ts|app\\.ts|(cluster|seed|backup)/)`;
const dir = (d) => `${SRC}${d}/`;
const BASE = [`${SRC}lib/`, `${SRC}db/`, `${SRC}env\\.ts$`];

const domainRules = DOMAINS.slice(1).map((domain, i) => ({
  name: `domain-${domain}-points-down`,
  comment: `${domain}/ may import only the domains listed below it in .dependency-cruiser.cjs (DOMAINS), access/, lib/, db/`,
  severity: 'error',
  from: { path: dir(domain), pathNot: TESTS },
  to: { path: DOMAINS.slice(0, i + 1).map(dir) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other at run time cannot be layered (a type-only import is erased and may close a circle).',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'entry-files-on-top',
      comment: 'Only tests import index.ts, app.ts, cluster/, seed/ or backup/: they compose everything below.',
      severity: 'error',
      from: { path: SRC, pathNot: [ENTRY, ...TESTS] },
      to: { path: ENTRY },
    },
    ...domainRules,
    {
      name: 'every-folder-has-a-layer',
      comment: 'A new folder under api/src gets its place: add it to DOMAINS (or to the entry files, access/, lib/ or db/).',
      severity: 'error',
      from: { path: SRC, pathNot: [ENTRY, `${SRC}(access|lib|db|test)/`, `${SRC}env\\.ts$`, ...DOMAINS.map(dir)] },
      to: {},
    },
    {
      name: 'access-beneath-the-domains',
      comment: "access/ (the caller's identity and reach) imports only lib/, db/, env.ts and shared.",
      severity: 'error',
      from: { path: `${SRC}access/`, pathNot: TESTS },
      to: { path: SRC, pathNot: [`${SRC}access/`, ...BASE] },
    },
    {
      name: 'lib-and-db-know-no-domain',
      comment: 'lib/, db/ and env.ts import only each other and shared: no domain, no access/.',
      severity: 'error',
      from: { path: BASE, pathNot: TESTS },
      to: { path: SRC, pathNot: BASE },
    },
    {
      name: 'table-sets-apart',
      comment: "SQLite's db/tables/ and PostgreSQL's db/pg/ (issue 29) never import each other; db/pg/parity.test.ts holds them alike.",
      severity: 'error',
      from: { path: `${SRC}db/tables/`, pathNot: TESTS },
      to: { path: `${SRC}db/pg/` },
    },
    {
      name: 'pg-set-on-its-own',
      comment: "db/pg/ builds on its own columns and term (db/pg/columns.ts, term.ts), never on SQLite's db/ files.",
      severity: 'error',
      from: { path: `${SRC}db/pg/`, pathNot: TESTS },
      to: { path: `${SRC}db/`, pathNot: `${SRC}db/pg/` },
    },
    {
      name: 'shared-imports-no-app',
      comment: 'The shared package is the floor: it imports nothing of api/, admin/ or portal/.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(api|admin|portal)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^api/dist/', '^api/drizzle/', '^api/drizzle-pg/'] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
