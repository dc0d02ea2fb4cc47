export * from './agent-api.ts';
export * from './cert.ts';
export * from './dnsapi.ts';
export * from './fields.ts';
export * from './site.ts';
export * from './snapshot.ts';
export * from './status.ts';
export * from './stream.ts';
