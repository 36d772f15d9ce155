/** Every PostgreSQL table (drizzle.pg.config.ts reads tables/*.ts; this barrel is for the client and tests). */
export * from './tables/users';
export * from './tables/departments';
export * from './tables/classes';
export * from './tables/organizations';
export * from './tables/roles';
export * from './tables/auth';
export * from './tables/audit';
export * from './tables/imports';
export * from './tables/payments';
export * from './tables/reminders';
export * from './tables/transfers';
export * from './tables/dues';
export * from './tables/remittances';
export * from './tables/reports';
export * from './tables/coordination';
