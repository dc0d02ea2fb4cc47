export * from './auth.ts';
export * from './edge/index.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './fields.ts';
export * from './permissions.ts';
export * from './routes.ts';
export * from './user.ts';
