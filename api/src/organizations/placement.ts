/**
 * Where a new or changed unit may sit (000 §2): the parent its type allows, or the default root,
 * and a code no other unit of its type holds. Both refuse with the field the form shows.
 */
import { ALLOWED_PARENTS, DEFAULT_PARENT_ROOT, type OrganizationType } from '@doanhoi/shared';
import { and, asc, eq, ne } from 'drizzle-orm';
import { organizations } from '../db/tables/organizations';
import type { Deps } from '../lib/context';
import { conflict, invalidField } from '../lib/errors';
import { firstRow } from '../db/engine';

type OrgRow = typeof organizations.$inferSelect;

export const codeTaken = (code: string) => `Mã tổ chức "${code}" đã tồn tại`;

export async function resolveParent(db: Deps['db'], type: OrganizationType, parentId: number | null | undefined): Promise<OrgRow | null> {
  const allowed = ALLOWED_PARENTS[type];
  if (allowed.length === 0) {
    if (parentId) invalidField('parentId', 'Tổ chức cấp trường (Đoàn trường, Hội Sinh viên trường) không có tổ chức cấp trên');
    return null;
  }
  let parent: OrgRow | undefined;
  if (parentId) parent = await firstRow(db.select().from(organizations).where(eq(organizations.id, parentId)));
  else {
    const rootType = DEFAULT_PARENT_ROOT[type];
    if (!rootType) invalidField('parentId', `Loại tổ chức ${type} cần chọn tổ chức cấp trên (${allowed.join(' hoặc ')})`);
    parent = await firstRow(db.select().from(organizations).where(eq(organizations.type, rootType!)).orderBy(asc(organizations.id)));
  }
  if (!parent)
    invalidField('parentId', parentId ? 'Không tìm thấy tổ chức cấp trên' : 'Chưa có tổ chức cấp trường để làm tổ chức cấp trên mặc định');
  if (!allowed.includes(parent!.type))
    invalidField('parentId', `Loại tổ chức ${type} phải thuộc ${allowed.join(' hoặc ')}, không thể đặt dưới ${parent!.type}`);
  return parent!;
}

export async function ensureCodeFree(db: Deps['db'], type: string, code: string, exceptId?: number) {
  const clash = await firstRow(
    db
      .select({ id: organizations.id })
      .from(organizations)
      .where(
        and(
          eq(organizations.type, type as OrganizationType),
          eq(organizations.code, code),
          exceptId ? ne(organizations.id, exceptId) : undefined,
        ),
      ),
  );
  if (clash) conflict(codeTaken(code), 'code');
}
