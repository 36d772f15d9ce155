export { ClassList } from './list';
