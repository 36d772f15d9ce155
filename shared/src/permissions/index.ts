export * from './catalogue';
export * from './check';
