import type { Permission } from '@doanhoi/shared';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A permission's name in the officer's language: data/locales/<lng>/permissions.json `names`,
 * keyed by the dotted code (hence the '|' key separator); the catalogue's Vietnamese name otherwise.
 */
export const permissionName = (t: Translate, p: Pick<Permission, 'code' | 'name'>) =>
  t(`permissions:names|${p.code}`, { keySeparator: '|', defaultValue: p.name });
