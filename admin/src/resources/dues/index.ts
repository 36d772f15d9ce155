export { DuesPage } from './page';
