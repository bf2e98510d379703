/**
 * Email action codes (spec §2): handling every mode of an action URL (`actionUrl.ts` reads the URL).
 * @module
 */
import { isUrlTenantAllowed, parseActionUrl } from './actionUrl.ts';
import { isRetryableError, toErrorInfo } from './errors.ts';
import type { MessageKey } from './messages.ts';
import type { ActionMode, AuthProvider } from './provider.ts';
import { safeRedirect } from './redirect.ts';
import { validateNewPassword } from './rules.ts';
import type { ActionCodeCard, ActionCodeCardState } from './states.ts';

/**
 * The outcome of an action URL, as the card to show: one of {@link ACTION_CODE_CARDS} with its data (the
 * reset form may carry an error), `widget` (show the sign-in widget), or a transient failure.
 */
export type ActionResult =
  | { card: 'widget'; mode: 'signIn' | 'select' | null }
  | ActionCodeCardState<Exclude<ActionCodeCard, 'passwordReset'>>
  | (ActionCodeCardState<'passwordReset'> & { error?: MessageKey })
  /** A network (or other transient) failure: worth retrying, not proof that the code is bad. */
  | { card: 'recoverableError'; message: MessageKey };

/** Options for {@link handleActionCode}. */
export interface ActionOptions {
  /** Origins a continue URL may point to; the first is the base for relative URLs. Default: the URL's origin. */
  allowedOrigins?: readonly string[];
  /**
   * The tenants a link may name: the widget's configured tenant ids (`null` for the default tenant). A link
   * naming another gets its failure card without a provider call. Unset: the link's tenant is used as it
   * is (the widget's own flow checks it against its configuration before it gets here).
   */
  tenantIds?: readonly (string | null)[];
}

const FAILURE: Record<Exclude<ActionMode, 'signIn' | 'select'>, ActionResult> = {
  resetPassword: { card: 'passwordResetFailure' },
  recoverEmail: { card: 'emailChangeRevokeFailure' },
  revertSecondFactorAddition: { card: 'revertSecondFactorAdditionFailure' },
  verifyEmail: { card: 'emailVerificationFailure' },
  verifyAndChangeEmail: { card: 'verifyAndChangeEmailFailure' },
};

function failure(mode: keyof typeof FAILURE, error: unknown): ActionResult {
  const { code } = toErrorInfo(error);
  return isRetryableError(code) ? { card: 'recoverableError', message: code } : FAILURE[mode];
}

/**
 * Handles an action URL on the server (or in the widget): checks and applies the code and says which card
 * to show. Works from web-standard input and returns plain data; never throws, never returns an unsafe
 * continue URL.
 * @example
 * // Remix loader
 * export const loader = ({ request }) => json(await handleActionCode(new URL(request.url), provider));
 */
export async function handleActionCode(
  url: string | URL,
  provider: Pick<
    AuthProvider,
    'checkActionCode' | 'applyActionCode' | 'verifyPasswordResetCode' | 'setTenant'
  >,
  options: ActionOptions = {},
): Promise<ActionResult> {
  const params = parseActionUrl(url);
  if (params === null) return { card: 'widget', mode: null };
  if (params.mode === 'signIn' || params.mode === 'select') return { card: 'widget', mode: params.mode };
  const origin = new URL(String(url)).origin;
  const allowed =
    options.allowedOrigins && options.allowedOrigins.length > 0 ? options.allowedOrigins : [origin];
  const continueUrl = safeRedirect(params.continueUrl, allowed);
  const code = params.oobCode;
  if (code === null) return FAILURE[params.mode];
  if (options.tenantIds && !isUrlTenantAllowed(params.tenantId, options.tenantIds)) {
    return FAILURE[params.mode];
  }
  try {
    await provider.setTenant(params.tenantId);
  } catch (e) {
    return failure(params.mode, e);
  }
  switch (params.mode) {
    case 'resetPassword':
      try {
        const email = await provider.verifyPasswordResetCode(code);
        return { card: 'passwordReset', code, email, continueUrl };
      } catch (e) {
        return failure('resetPassword', e);
      }
    case 'verifyEmail':
      try {
        await provider.applyActionCode(code);
        return { card: 'emailVerificationSuccess', continueUrl };
      } catch (e) {
        return failure('verifyEmail', e);
      }
    case 'verifyAndChangeEmail':
      try {
        const info = await provider.checkActionCode(code);
        await provider.applyActionCode(code);
        return { card: 'verifyAndChangeEmailSuccess', email: info.email ?? '', continueUrl };
      } catch (e) {
        return failure('verifyAndChangeEmail', e);
      }
    case 'recoverEmail':
      try {
        const info = await provider.checkActionCode(code);
        await provider.applyActionCode(code);
        return { card: 'emailChangeRevoked', email: info.email ?? '' };
      } catch (e) {
        return failure('recoverEmail', e);
      }
    case 'revertSecondFactorAddition':
      try {
        const info = await provider.checkActionCode(code);
        await provider.applyActionCode(code);
        return { card: 'revertSecondFactorAdditionSuccess', factor: info.factor ?? '', email: info.email };
      } catch (e) {
        return failure('revertSecondFactorAddition', e);
      }
  }
}

/**
 * Confirms a password reset from the reset card's form (server or widget). A weak password stays on the
 * reset card with its message; a bad code goes to the failure card.
 */
export async function confirmPasswordResetAction(
  code: string,
  email: string,
  newPassword: string,
  provider: Pick<AuthProvider, 'confirmPasswordReset'>,
  continueUrl: string | null = null,
): Promise<ActionResult> {
  const invalid = validateNewPassword(newPassword, undefined);
  if (invalid !== null) return { card: 'passwordReset', code, email, continueUrl, error: invalid };
  try {
    await provider.confirmPasswordReset(code, newPassword);
    return { card: 'passwordResetSuccess', continueUrl };
  } catch (e) {
    const info = toErrorInfo(e);
    if (info.code === 'weak-password')
      return { card: 'passwordReset', code, email, continueUrl, error: 'weak-password' };
    if (isRetryableError(info.code))
      return { card: 'passwordReset', code, email, continueUrl, error: info.code };
    return { card: 'passwordResetFailure' };
  }
}
