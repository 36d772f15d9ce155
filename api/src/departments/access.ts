import type { OrganizationFrom } from '../access/middleware';

/**
 * Departments and classes are university-wide catalogues, owned by no organization. Reads need
 * the code held somewhere (an org-scoped officer picks a class or department for its members);
 * writes name no organization, so only a global role or a super admin passes: an organization
 * admin cannot change catalogues every other organization shares.
 */
export const universityWide: OrganizationFrom = () => null;
