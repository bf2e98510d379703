/**
 * @doorway/auth-core: the provider-neutral sign-in flow engine.
 * @module
 */

export * from './action.ts';
export * from './config.ts';
export * from './constants.ts';
export * from './emailLinkStore.ts';
export * from './errors.ts';
export * from './events.ts';
export { type CreateFlowOptions, createFlow, type Flow } from './flow.ts';
export * from './loader.ts';
export * from './messages.ts';
export * from './ops.ts';
export * from './provider.ts';
export * from './redirect.ts';
export * from './rules.ts';
export * from './states.ts';
export {
  type FlowContext,
  initialState,
  type ProviderLoaded,
  type TransitionResult,
  transition,
} from './transition.ts';
