import { normalizeText } from '@doanhoi/shared';

/** The accent-stripped text the users list searches ("nguyen van" finds "Nguyễn Văn"). */
export function userSearchText(u: { familyName: string; givenName: string; code: string; email: string; phone?: string | null }): string {
  return normalizeText(`${u.familyName} ${u.givenName} ${u.code} ${u.email} ${u.phone ?? ''}`);
}
