/**
 * `@doorway/auth-core/server`: the flow engine on a server. A host posts its cards as plain HTML forms;
 * the server runs the same pure `transition` with a {@link ServerAuthProvider} and renders the next card.
 * @module
 */
export {
  formEvent,
  MIN_SECRET_BYTES,
  type Opened,
  openState,
  SEALED_STATE_TTL_MS,
  type SealingSecret,
  type SealOptions,
  sealingSecretProblem,
  sealState,
  type UiEvent,
} from './formPost.ts';
export {
  type ActionCodeProvider,
  type AuthServer,
  BROWSER_ONLY,
  type BrowserOnlyMethods,
  type FormProviderRequest,
  type ServerAuthProvider,
  type SessionBackend,
  type SessionUser,
} from './serverContract.ts';
export {
  capPageUrl,
  createServerFlow,
  DEFAULT_FLOW_COOKIE,
  LAST_USED_COOKIE,
  LAST_USED_MAX_AGE_SECONDS,
  lastUsedCookieHeader,
  MAX_OPTION_ID_LENGTH,
  MAX_PAGE_URL_LENGTH,
  readLastUsed,
  SERVER_OPS,
  type ServerFlow,
  type ServerFlowOptions,
  type ServerFlowResult,
  type ServerHandleOptions,
  type ServerSignIn,
  serverCanRun,
} from './serverFlow.ts';
export { createServerStorage, type ServerStorage } from './serverStorage.ts';
