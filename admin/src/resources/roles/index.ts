export { RoleList } from './list';
