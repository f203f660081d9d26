export * from './account';
export * from './catalog';
export * from './inbound';
export * from './partners';
export * from './platform';
export * from './stock';
export * from './warehouse';
export * from './outbound';
