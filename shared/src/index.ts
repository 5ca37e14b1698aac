export * from './constants';
export * from './format';
export * from './contracts/common';
export * from './contracts/rates';
export * from './contracts/subscribers';
export * from './contracts/admin';
export * from './contracts/plans';
export * from './contracts/health';
