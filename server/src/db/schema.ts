// The whole domain of SPEC §3, one file per part of it. Columns are snake_case; the services map rows to the spec's
// JSON names.
export * from './tables/enums';
export * from './tables/rates';
export * from './tables/accounts';
export * from './tables/plans';
export * from './tables/requests';
export * from './tables/operations';
export * from './tables/webhooks';
export * from './tables/alerts';
