/**
 * @doorway/auth-core: the provider-neutral sign-in flow engine.
 * @module
 */
export * from './constants.ts';
export * from './messages.ts';
export * from './errors.ts';
export * from './provider.ts';
export * from './config.ts';
export * from './redirect.ts';
export * from './rules.ts';
export * from './states.ts';
export * from './events.ts';
export * from './ops.ts';
export * from './action.ts';
export * from './emailLinkStore.ts';
export * from './loader.ts';
export { initialState, transition, type FlowContext, type ProviderLoaded, type TransitionResult } from './transition.ts';
export { createFlow, type CreateFlowOptions, type Flow } from './flow.ts';
