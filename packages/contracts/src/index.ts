export * from './auth';
export * from './catalog';
export * from './common';
export * from './errors';
export * from './jobs';
export * from './routes';
export * from './warehouse';
