export * from './permissions';
export * from './format';
export * from './schemas/common';
export * from './schemas/enums';
export * from './schemas/auth';
