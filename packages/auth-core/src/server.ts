/**
 * `@doorway/auth-core/server`: the flow engine on a server. A host posts its cards as plain HTML forms;
 * the server runs the same pure `transition` with a {@link ServerAuthProvider} and renders the next card.
 * @module
 */
export { formEvent, type UiEvent } from './formEvent.ts';
export {
  MIN_SECRET_BYTES,
  type Opened,
  openState,
  SEALED_STATE_TTL_MS,
  type SealingSecret,
  type SealOptions,
  sealingSecretProblem,
  sealState,
} from './sealedState.ts';
export type {
  ActionCodeProvider,
  AuthServer,
  FormProviderRequest,
  SessionBackend,
  SessionUser,
} from './serverContract.ts';
export {
  capPageUrl,
  createServerFlow,
  DEFAULT_FLOW_COOKIE,
  MAX_PAGE_URL_LENGTH,
  type ServerFlow,
  type ServerFlowOptions,
  type ServerFlowResult,
  type ServerHandleOptions,
  type ServerSignIn,
} from './serverFlow.ts';
export {
  BROWSER_ONLY,
  type BrowserOnlyMethods,
  SERVER_OPS,
  type ServerAuthProvider,
  serverCanRun,
} from './serverProvider.ts';
export { createServerStorage, type ServerStorage } from './serverStorage.ts';
