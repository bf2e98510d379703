/**
 * The action route (`/action?mode=…&oobCode=…&continueUrl=…`) as a page of the sign-in form path. Every
 * emailed link opens the flow on the server: its `START` on the action URL handles the code (the engine's
 * `actionCode` call: `handleActionCode` checks it, and applies it for verify, recover and revert) and shows
 * the result card; the card's forms (a new password, "Change password", Continue, Retry) post back to the
 * same URL and run in the same flow (`formAction`). What this page adds to the login page's wiring:
 *
 * - the action pages' headers on every answer: no caching, no `Referer` off the origin, `noindex`;
 * - 503 for a network failure of the backend and 429 for its rate limit (the recoverable-error card);
 * - no action code in the page: the state the page renders and hands the browser has it taken out (the
 *   sealed flow cookie keeps it for the next POST);
 * - modes the provider sends no links for (`capabilities.actionCodes`: Supabase has no `recoverEmail` or
 *   `revertSecondFactorAddition` links) get their failure card without the provider seeing the code;
 * - a reset email asked for on an action page continues to the sign-in page, not back to the spent link.
 * @module
 */
import { AuthError, type FlowState, isRetryableError } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import { codeModeOf, type FormPage } from './form-path.server.ts';
import { ACTION_PATH } from './public-config.ts';
import { ACTION_PAGE_HEADERS } from './security-headers.ts';

/** The sign-in page: where a URL of the action route leads once its code is taken out. */
export const SIGN_IN_PATH = '/login';

/** The query values of an action link (what `parseActionUrl` reads, and the key Firebase adds). */
const ACTION_PARAMS = ['mode', 'oobCode', 'continueUrl', 'tenantId', 'lang', 'apiKey'];

/**
 * `url` without an action link's values when it carries an action code (`oobCode`), and on the sign-in
 * page instead of the action route; anything else (no code, not an absolute URL) as it is.
 * @example withoutActionCode('http://host/action?mode=recoverEmail&oobCode=abc') // 'http://host/login'
 */
export function withoutActionCode(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (!parsed.searchParams.has('oobCode')) return url;
  for (const name of ACTION_PARAMS) parsed.searchParams.delete(name);
  if (parsed.pathname === ACTION_PATH) parsed.pathname = SIGN_IN_PATH;
  return parsed.href;
}

/**
 * The state as an action page renders it and hands it to the browser: every value that holds the link's
 * code (the reset card's `code`, the page URL, a Retry's URL) without it, a URL becoming the sign-in
 * page's. A sign-in link's page is left as it is: the browser's widget completes that link itself.
 */
export function pageState(state: FlowState, request: Request): FlowState {
  const url = new URL(request.url);
  if (codeModeOf(url) === null) return state;
  const codes = url.searchParams.getAll('oobCode').filter((code) => code !== '');
  return JSON.parse(
    JSON.stringify(state, (_key, value: unknown) => {
      if (typeof value !== 'string') return value;
      return codes.includes(value) ? '' : withoutActionCode(value);
    }),
  ) as FlowState;
}

/**
 * The status of an action page: the recoverable-error card of a transient backend failure answers 429
 * for a rate limit and 503 for the rest (a network failure); anything else keeps the flow's status.
 */
export function actionStatus(state: FlowState, status: number): number {
  if (state.card !== 'recoverableError' || !isRetryableError(state.message)) return status;
  return state.message.endsWith('too-many-requests') ? 429 : 503;
}

const refused = (): Promise<never> => Promise.reject(new AuthError('invalid-action-code'));

/**
 * The provider an action page runs the flow on. For a mode the provider sends no links for, its
 * action-code methods refuse the code as invalid without a call (the mode's failure card): on Supabase a
 * code is used when it is checked, so checking one under the wrong mode would use it up. A reset email
 * the flow asks for with the page's URL as its continue URL continues to the sign-in page instead
 * ({@link withoutActionCode}): the page's own link is spent by then.
 */
export function actionPageProvider(provider: ServerAuthProvider, request: Request): ServerAuthProvider {
  const mode = codeModeOf(request.url);
  const unsupported = mode !== null && !provider.capabilities.actionCodes.includes(mode);
  return {
    ...provider,
    ...(unsupported
      ? {
          checkActionCode: refused,
          applyActionCode: refused,
          verifyPasswordResetCode: refused,
          confirmPasswordReset: refused,
        }
      : {}),
    sendPasswordResetEmail: (email, settings) =>
      provider.sendPasswordResetEmail(
        email,
        settings === undefined ? undefined : { ...settings, url: withoutActionCode(settings.url) },
      ),
  };
}

/** The action route's page of the form path (`formLoader(request, context, ACTION_PAGE)`). */
export const ACTION_PAGE: FormPage = {
  provider: actionPageProvider,
  view: (view, status, request) => ({
    view: { ...view, state: pageState(view.state, request) },
    status: actionStatus(view.state, status),
  }),
  headers: ACTION_PAGE_HEADERS,
};
