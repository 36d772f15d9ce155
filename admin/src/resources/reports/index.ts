export { ReportsPage } from './page';
