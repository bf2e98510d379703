/**
 * Action codes and the links that carry them, shared by the browser provider (SDK results) and the
 * server's form provider (Identity Toolkit REST responses, `../server/actionCodes.ts`), so both name codes
 * and read links alike.
 * @module
 */
import { type ActionCodeInfo, AuthError } from '@doorway/auth-core';
import type { ActionCodeInfo as FirebaseActionCodeInfo } from 'firebase/auth';

/** Firebase's operation names (`requestType`) in the spec's words. */
export const OPERATIONS: Readonly<Record<string, ActionCodeInfo['operation']>> = {
  PASSWORD_RESET: 'resetPassword',
  RECOVER_EMAIL: 'recoverEmail',
  REVERT_SECOND_FACTOR_ADDITION: 'revertSecondFactorAddition',
  VERIFY_EMAIL: 'verifyEmail',
  VERIFY_AND_CHANGE_EMAIL: 'verifyAndChangeEmail',
  EMAIL_SIGNIN: 'signIn',
};

/**
 * Our {@link ActionCodeInfo} from Firebase's: operation names in the spec's words, `email` / `previousEmail`
 * as Firebase reports them (recoverEmail: the restored email / the one it had been changed to;
 * verifyAndChangeEmail: the new email / the old one), and a revert's factor as its phone number or name.
 * Throws `invalid-action-code` for an operation it does not know.
 */
export function toActionCodeInfo(info: FirebaseActionCodeInfo): ActionCodeInfo {
  const operation = Object.hasOwn(OPERATIONS, info.operation) ? OPERATIONS[info.operation] : undefined;
  if (operation === undefined) throw new AuthError('invalid-action-code');
  const result: ActionCodeInfo = {
    operation,
    email: info.data.email ?? null,
    previousEmail: info.data.previousEmail ?? null,
  };
  const factor = info.data.multiFactorInfo;
  if (factor != null) {
    const phone =
      'phoneNumber' in factor && typeof factor.phoneNumber === 'string' ? factor.phoneNumber : null;
    result.factor = phone ?? factor.displayName ?? factor.factorId;
  }
  return result;
}

/** What an email action link carries (Firebase's `ActionCodeURL`, as plain data). */
export interface ActionLink {
  apiKey: string;
  /** Firebase's operation name (`EMAIL_SIGNIN`, `PASSWORD_RESET`, …). */
  operation: string;
  code: string;
  continueUrl: string | null;
  tenantId: string | null;
}

const MODES: Readonly<Record<string, string>> = {
  recoverEmail: 'RECOVER_EMAIL',
  resetPassword: 'PASSWORD_RESET',
  signIn: 'EMAIL_SIGNIN',
  verifyEmail: 'VERIFY_EMAIL',
  verifyAndChangeEmail: 'VERIFY_AND_CHANGE_EMAIL',
  revertSecondFactorAddition: 'REVERT_SECOND_FACTOR_ADDITION',
};

// The SDK's query helpers (@firebase/util), kept as they are so links are read exactly as in the browser.
function extractQuerystring(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === 0) return '';
  const fragmentStart = url.indexOf('#', queryStart);
  return url.substring(queryStart, fragmentStart > 0 ? fragmentStart : undefined);
}

function querystringDecode(querystring: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const token of querystring.replace(/^\?/, '').split('&')) {
    if (token === '') continue;
    const [key = '', value] = token.split('=');
    result.set(decodeURIComponent(key), decodeURIComponent(String(value)));
  }
  return result;
}

function queryOf(url: string): Map<string, string> {
  return querystringDecode(extractQuerystring(url));
}

/** The action link inside a link: Firebase Dynamic Links and iOS custom schemes wrap it in `link` / `deep_link_id`. */
function deepLink(url: string): string {
  const link = queryOf(url).get('link');
  const doubleDeepLink = link ? queryOf(link).get('deep_link_id') : undefined;
  const iosDeepLink = queryOf(url).get('deep_link_id');
  const iosDoubleDeepLink = iosDeepLink ? queryOf(iosDeepLink).get('link') : undefined;
  return iosDoubleDeepLink || iosDeepLink || doubleDeepLink || link || url;
}

/**
 * Reads an email action link as the Firebase JS SDK does (`ActionCodeURL.parseLink`): the link itself or
 * the one wrapped in its `link` / `deep_link_id` parameter, which must carry an `apiKey`, an `oobCode` and
 * a known `mode`. `null` for anything else, including a malformed escape.
 * @example parseActionLink('https://app.test/login?mode=signIn&oobCode=abc&apiKey=k')?.operation // 'EMAIL_SIGNIN'
 */
export function parseActionLink(link: string): ActionLink | null {
  try {
    const query = queryOf(deepLink(link));
    const mode = query.get('mode') ?? '';
    const operation = Object.hasOwn(MODES, mode) ? MODES[mode] : undefined;
    const apiKey = query.get('apiKey');
    const code = query.get('oobCode');
    if (!apiKey || !code || operation === undefined) return null;
    return {
      apiKey,
      operation,
      code,
      continueUrl: query.get('continueUrl') ?? null,
      tenantId: query.get('tenantId') ?? null,
    };
  } catch {
    return null;
  }
}
