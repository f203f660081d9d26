export * from './account';
export * from './catalog';
export * from './platform';
export * from './warehouse';
