export { OrganizationMembersPage } from './members';
export { OrganizationShowPage } from './show';
export { OrganizationTreePage } from './tree';
