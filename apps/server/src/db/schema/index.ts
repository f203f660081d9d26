export * from './account';
export * from './catalog';
export * from './partners';
export * from './platform';
export * from './warehouse';
