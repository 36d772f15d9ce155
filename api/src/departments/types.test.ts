import type { CreateClass, CreateDepartment, UpdateClass, UpdateDepartment } from '@doanhoi/shared';
import { describe, expectTypeOf, it } from 'vitest';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';

/** The shared input schemas (also the admin's form rules) must fit the tables they write (STYLE §5.5). */
describe('catalogue input schemas fit their tables', () => {
  it('departments', () => {
    expectTypeOf<CreateDepartment>().toMatchTypeOf<Partial<typeof departments.$inferInsert>>();
    expectTypeOf<UpdateDepartment>().toMatchTypeOf<Partial<typeof departments.$inferInsert>>();
  });

  it('classes', () => {
    expectTypeOf<CreateClass>().toMatchTypeOf<Partial<typeof classes.$inferInsert>>();
    expectTypeOf<UpdateClass>().toMatchTypeOf<Partial<typeof classes.$inferInsert>>();
  });
});
