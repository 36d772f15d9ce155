export { DepartmentList } from './list';
