export { AuditLogList } from './list';
