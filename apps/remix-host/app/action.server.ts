/**
 * The action-code route (`/action`): every emailed link lands here and is handled on the server, so the
 * pages work with JavaScript off. The page's data is an {@link ActionView}: the card to render, with
 * nothing a visitor can steer off-origin (continue URLs pass `safeRedirect`, action codes stay in the URL
 * and are never echoed into the page).
 * @module
 */
import type { ActionCodeProvider } from '@doorway/adapter-firebase/server';
import {
  type ActionMode,
  type ActionResult,
  AuthError,
  confirmPasswordResetAction,
  handleActionCode,
  type MessageKey,
  normalizeEmail,
  parseActionUrl,
  validateEmail,
} from '@doorway/auth-core';
import { isTrustedOrigin, safeTarget, trustedOrigins } from './origin.server.ts';
import { forbidden } from './session.server.ts';

/** What the action route renders. `widget`: the sign-in widget (email-link sign-in, `select`, no mode). */
export type ActionView =
  | { card: 'widget' }
  | { card: 'passwordReset'; email: string; error: MessageKey | null }
  | { card: 'passwordResetSuccess'; continueUrl: string }
  | { card: 'passwordResetFailure' }
  | { card: 'emailVerificationSuccess'; continueUrl: string }
  | { card: 'emailVerificationFailure' }
  | { card: 'verifyAndChangeEmailSuccess'; email: string; continueUrl: string }
  | { card: 'verifyAndChangeEmailFailure' }
  | { card: 'revertSecondFactorAdditionSuccess'; factor: string; email: string | null }
  | { card: 'revertSecondFactorAdditionFailure' }
  | { card: 'emailChangeRevoked'; email: string }
  | { card: 'emailChangeRevokeFailure' }
  | { card: 'recoverableError'; message: MessageKey }
  /** "Change password" failed to send: the recovery card, to try again. */
  | { card: 'passwordRecovery'; email: string; error: MessageKey | null }
  /** "Change password" sent a reset email. */
  | { card: 'recoveryEmailSent'; email: string };

/** A rendered action page: the view and its HTTP status. */
export interface ActionPage {
  view: ActionView;
  status: number;
}

/** What the action route needs from the outside world. */
export interface ActionDeps {
  /** A fresh action-code provider for this request (its tenant is per request). */
  provider(): ActionCodeProvider;
  /** Sends a password-reset email whose continue URL is `continueUrl`. Rejects with an `AuthError`. */
  sendPasswordResetEmail(email: string, continueUrl: string): Promise<void>;
  /** `DOORWAY_ALLOWED_ORIGINS`. */
  allowedOrigins: readonly string[];
  /**
   * The action modes the provider sends links for (its `capabilities.actionCodes`); default: all. A link
   * of another mode gets that mode's failure card without a provider call: on Supabase, whose codes are
   * used when checked, checking a code under the wrong mode would use it up (or apply it).
   */
  actionCodes?: readonly ActionMode[];
}

const FAILURE_OF: Readonly<Record<string, ActionResult>> = {
  resetPassword: { card: 'passwordResetFailure' },
  recoverEmail: { card: 'emailChangeRevokeFailure' },
  revertSecondFactorAddition: { card: 'revertSecondFactorAdditionFailure' },
  verifyEmail: { card: 'emailVerificationFailure' },
  verifyAndChangeEmail: { card: 'verifyAndChangeEmailFailure' },
};

/** `handleActionCode`, except for modes the provider does not have (their failure card). */
function handle(
  request: Request,
  provider: ActionCodeProvider,
  deps: Pick<ActionDeps, 'allowedOrigins' | 'actionCodes'>,
): Promise<ActionResult> {
  const url = new URL(request.url);
  const mode = parseActionUrl(url)?.mode;
  const failure = mode === undefined ? undefined : FAILURE_OF[mode];
  if (
    failure !== undefined &&
    deps.actionCodes !== undefined &&
    !deps.actionCodes.includes(mode as ActionMode)
  ) {
    return Promise.resolve(failure);
  }
  return handleActionCode(url, provider, { allowedOrigins: trustedOrigins(request, deps.allowedOrigins) });
}

/** The login page: where "Continue" leads when the link carries no safe continue URL. */
export const SIGN_IN_PATH = '/login';

/**
 * HTTP status of a view: 429 when the backend rate-limited the request, 503 for another transient backend
 * failure (both worth retrying), else 200.
 */
export function statusOf(view: ActionView): number {
  if (view.card !== 'recoverableError') return 200;
  return view.message.endsWith('too-many-requests') ? 429 : 503;
}

/** The view of an {@link ActionResult}: continue URLs re-checked and made relative when same-origin. */
export function toView(
  result: ActionResult,
  request: Request,
  allowedOrigins: readonly string[],
): ActionView {
  const next = (url: string | null) => safeTarget(url, request, allowedOrigins, SIGN_IN_PATH) ?? SIGN_IN_PATH;
  switch (result.card) {
    case 'widget':
      return { card: 'widget' };
    case 'passwordReset':
      return { card: 'passwordReset', email: result.email, error: result.error ?? null };
    case 'passwordResetSuccess':
    case 'emailVerificationSuccess':
      return { card: result.card, continueUrl: next(result.continueUrl) };
    case 'verifyAndChangeEmailSuccess':
      return { card: result.card, email: result.email, continueUrl: next(result.continueUrl) };
    case 'revertSecondFactorAdditionSuccess':
      return { card: result.card, factor: result.factor, email: result.email };
    case 'emailChangeRevoked':
      return { card: result.card, email: result.email };
    case 'recoverableError':
      return { card: result.card, message: result.message };
    case 'passwordResetFailure':
    case 'emailVerificationFailure':
    case 'verifyAndChangeEmailFailure':
    case 'revertSecondFactorAdditionFailure':
    case 'emailChangeRevokeFailure':
      return { card: result.card };
  }
}

function page(view: ActionView): ActionPage {
  return { view, status: statusOf(view) };
}

/**
 * `GET /action`: checks (and for verify/recover/revert, applies) the action code of the URL and says
 * which card to show. Never throws for any URL; unknown modes and email-link sign-in get the widget.
 */
export async function loadActionPage(request: Request, deps: ActionDeps): Promise<ActionPage> {
  const result = await handle(request, deps.provider(), deps);
  return page(toView(result, request, deps.allowedOrigins));
}

const field = (form: FormData, name: string): string => {
  const v = form.get(name);
  return typeof v === 'string' ? v : '';
};

/**
 * `POST /action`: the password-reset form (`intent=resetPassword`, `newPassword`; the code stays in the
 * URL and is verified again) and "Change password" on the email-change-revoked and second-factor cards
 * (`intent=sendPasswordReset`, `email`). A cross-origin post is refused: this throws a 403 `Response`
 * (Remix renders the error page with that status).
 */
export async function submitActionPage(request: Request, deps: ActionDeps): Promise<ActionPage> {
  if (!isTrustedOrigin(request, deps.allowedOrigins)) throw forbidden();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return loadActionPage(request, deps);
  }
  const intent = field(form, 'intent');
  if (intent === 'sendPasswordReset') {
    const email = normalizeEmail(field(form, 'email'));
    const invalid = validateEmail(email, undefined);
    if (invalid !== null) return page({ card: 'passwordRecovery', email, error: invalid });
    const continueUrl = new URL(SIGN_IN_PATH, trustedOrigins(request, deps.allowedOrigins)[0]).href;
    try {
      await deps.sendPasswordResetEmail(email, continueUrl);
      return page({ card: 'recoveryEmailSent', email });
    } catch (e) {
      return page({ card: 'passwordRecovery', email, error: e instanceof AuthError ? e.code : 'generic' });
    }
  }
  if (intent === 'resetPassword') {
    const provider = deps.provider();
    const checked = await handle(request, provider, deps);
    if (checked.card !== 'passwordReset') return page(toView(checked, request, deps.allowedOrigins));
    const result = await confirmPasswordResetAction(
      checked.code,
      checked.email,
      field(form, 'newPassword'),
      provider,
      checked.continueUrl,
    );
    return page(toView(result, request, deps.allowedOrigins));
  }
  return loadActionPage(request, deps);
}
