import type { CreateRole, UpdateRole } from '@doanhoi/shared';
import { describe, expectTypeOf, it } from 'vitest';
import { roles } from '../db/tables/roles';

/** The shared input schemas (also the admin's form rules) must fit the table they write (STYLE §5.5). */
describe('role input schemas fit the roles table', () => {
  it('create and update, apart from the permission links', () => {
    expectTypeOf<Omit<CreateRole, 'permissionIds'>>().toMatchTypeOf<Partial<typeof roles.$inferInsert>>();
    expectTypeOf<Omit<UpdateRole, 'permissionIds'>>().toMatchTypeOf<Partial<typeof roles.$inferInsert>>();
  });
});
