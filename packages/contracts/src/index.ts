export * from './auth';
export * from './common';
export * from './errors';
export * from './routes';
