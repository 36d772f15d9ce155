export { UserList } from './list';
