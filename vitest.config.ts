import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'api/src/**/*.test.ts', 'admin/src/**/*.test.{ts,tsx}', 'portal/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
  },
});
