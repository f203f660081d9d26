export * from './auth';
export * from './jobs';
export * from './common';
export * from './errors';
export * from './routes';
