export { EmailOutboxList } from './list';
