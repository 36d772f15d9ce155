import { defineConfig } from 'drizzle-kit';

/** PostgreSQL's migrations (issue 29): generated from db/pg/tables into drizzle-pg/; SQLite's stay in drizzle/. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/pg/tables/*.ts',
  out: './drizzle-pg',
  casing: 'snake_case',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost/doanhoi' },
});
