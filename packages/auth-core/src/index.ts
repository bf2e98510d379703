/**
 * @doorway/auth-core: the provider-neutral sign-in flow engine.
 * @module
 */

export * from './action.ts';
export * from './actionUrl.ts';
export * from './cardText.ts';
export * from './config.ts';
export * from './constants.ts';
export * from './emailLinkStore.ts';
export { createFlow, flowEngine } from './engine.ts';
export * from './errors.ts';
export * from './events.ts';
export {
  type CreateFlowOptions,
  type Flow,
  type FlowEngine,
  runFlow,
} from './flow.ts';
export * from './loader.ts';
export * from './messages.ts';
export * from './ops.ts';
export * from './provider.ts';
export * from './redirect.ts';
export * from './rules.ts';
export type { FlowRuntime } from './runtime.ts';
export {
  type FlowContext,
  initialState,
  type ProviderLoaded,
  startTransition,
  type TransitionResult,
} from './start.ts';
export * from './states.ts';
export { transition } from './transition.ts';
export type * from './webauthn.ts';
export { passkeyCeremonyCode } from './webauthn.ts';
