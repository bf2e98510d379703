export * from './constants.ts';
export * from './messages.ts';
export * from './errors.ts';
export * from './provider.ts';
export * from './config.ts';
export * from './redirect.ts';
export * from './states.ts';
export * from './events.ts';
