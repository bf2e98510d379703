/**
 * `@doorway/auth-core/first-card`: the part of the engine a widget needs to show its first card (config,
 * texts, the runner and the `START` transition). A widget's first chunk imports only this entry, so that
 * bundlers leave the rest of the engine (`flowEngine`: every other transition and the provider calls) to a
 * chunk loaded after the first card. Everything here is also exported by `@doorway/auth-core`.
 * @module
 */
export { methodOf, normalizeConfig, optionsFor, phoneOptionOf } from './config.ts';
export { runFlow } from './flow.ts';
export { isLazyProvider } from './loader.ts';
export { firstCardText, messageFor } from './messages.ts';
export { initialState, startTransition } from './start.ts';
