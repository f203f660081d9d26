export * from './account';
export * from './platform';
export * from './warehouse';
