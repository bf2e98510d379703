/**
 * The account page's own forms, run on the server so that they work without JavaScript: the display name,
 * the password, signing out of every other device and deleting the account. Each is a plain
 * `<form method="post">` to `/account` with an `intent`; the session's own provider runs it
 * (`provider.account`, offered where `capabilities.account` lists the operation).
 *
 * Same origin only, a bounded urlencoded body, the session cookie verified. Success: 303 back to the page
 * with `?done=<intent>` (deleting: the cookie cleared and 303 to `/account/deleted`). A refusal: 422 with the
 * catalogue's message for the section, and what was typed kept (never a password). Nothing typed is logged.
 * @module
 */
import { type AccountOperation, AuthError, type MessageKey, messageFor } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import type { OpenSession } from './account-calls.server.ts';
import { isTrustedOrigin } from './origin.server.ts';
import {
  clearSessionCookieHeader,
  forbidden,
  LOGIN_FOR_ACCOUNT,
  readSessionCookie,
} from './session.server.ts';

/** Where a deleted account's browser is sent. */
export const ACCOUNT_DELETED_PATH = '/account/deleted';

/** The word typed to confirm deletion (the same as `<DeleteAccount>`'s). */
export const DELETE_WORD = 'delete';

/** The forms of the page, each named by the `intent` it posts. */
export type SettingsIntent = 'profile' | 'password' | 'signOutOthers' | 'delete';

/** The operations each form runs (the form shows only where the provider lists them all). */
export const SETTINGS_OPERATIONS: Record<SettingsIntent, readonly AccountOperation[]> = {
  profile: ['updateProfile'],
  password: ['changePassword'],
  signOutOthers: ['signOutOtherSessions'],
  delete: ['deleteAccount'],
};

/** One posted form, read. */
export type SettingsCall =
  | { intent: 'profile'; displayName: string }
  | { intent: 'password'; newPassword: string; currentPassword: string | null }
  | { intent: 'signOutOthers' }
  | { intent: 'delete'; confirm: string };

/** What the page shows after a refused form: the section, its message, and what was typed (no passwords). */
export interface SettingsRefusal {
  intent: SettingsIntent;
  code: MessageKey;
  error: string;
  values: Record<string, string>;
}

const MAX_BODY_BYTES = 4 * 1024;
const field = (form: URLSearchParams, name: string, max: number): string | null => {
  const value = form.get(name);
  return value !== null && value.length <= max ? value : null;
};

/** The call a form body asks for, or `null` when it is not one. */
export function readSettingsForm(form: URLSearchParams): SettingsCall | null {
  switch (form.get('intent')) {
    case 'profile': {
      const displayName = field(form, 'displayName', 100);
      return displayName === null ? null : { intent: 'profile', displayName };
    }
    case 'password': {
      const newPassword = field(form, 'newPassword', 256);
      const current = form.has('currentPassword') ? field(form, 'currentPassword', 256) : '';
      if (newPassword === null || current === null) return null;
      return { intent: 'password', newPassword, currentPassword: current === '' ? null : current };
    }
    case 'signOutOthers':
      return { intent: 'signOutOthers' };
    case 'delete': {
      const confirm = field(form, 'confirm', 100);
      return confirm === null ? null : { intent: 'delete', confirm };
    }
    default:
      return null;
  }
}

/** What a refused call keeps of what was typed. */
function kept(call: SettingsCall): Record<string, string> {
  if (call.intent === 'profile') return { displayName: call.displayName };
  if (call.intent === 'delete') return { confirm: call.confirm };
  return {};
}

/** Checks what the form itself can, before the backend is asked: a catalogue code, or `null`. */
function invalid(call: SettingsCall): MessageKey | null {
  return call.intent === 'password' && call.newPassword === '' ? 'password-required' : null;
}

/** Runs a call on the session's provider. */
async function run(provider: ServerAuthProvider, call: SettingsCall): Promise<void> {
  const ops = provider.account;
  const listed = provider.capabilities.account ?? [];
  if (ops === undefined || !SETTINGS_OPERATIONS[call.intent].every((op) => listed.includes(op)))
    throw new AuthError('operation-not-allowed');
  switch (call.intent) {
    case 'profile':
      await ops.updateProfile({
        displayName: call.displayName.trim() === '' ? null : call.displayName.trim(),
      });
      return;
    case 'password':
      await ops.changePassword(call.newPassword, call.currentPassword ?? undefined);
      return;
    case 'signOutOthers':
      await ops.signOutOtherSessions();
      return;
    case 'delete':
      await ops.deleteAccount();
      return;
  }
}

const text = (status: number, body: string, headers: Record<string, string> = {}): Response =>
  new Response(body, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

const seeOther = (location: string, headers: Record<string, string> = {}): Response =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } });

/** The urlencoded body of a request, at most {@link MAX_BODY_BYTES}; `null` for anything else. */
async function readForm(request: Request): Promise<URLSearchParams | null> {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded'))
    return null;
  if (Number(request.headers.get('content-length') ?? '0') > MAX_BODY_BYTES) return null;
  const body = await request.text();
  return body.length > MAX_BODY_BYTES ? null : new URLSearchParams(body);
}

/**
 * `POST /account`: one form of the page. A `Response` (403, 404, 400, a redirect) or, for a refusal the
 * page shows in its section, a {@link SettingsRefusal} (the route answers it with 422).
 */
export async function accountSettings(
  request: Request,
  allowedOrigins: readonly string[],
  open: OpenSession<ServerAuthProvider> | null,
): Promise<Response | SettingsRefusal> {
  if (!isTrustedOrigin(request, allowedOrigins)) return forbidden();
  if (open === null) return text(404, 'Not available for this provider');
  const form = await readForm(request);
  const call = form === null ? null : readSettingsForm(form);
  if (call === null) return text(400, 'Not a form of this page');
  const refuse = (code: MessageKey): SettingsRefusal => ({
    intent: call.intent,
    code,
    error: messageFor(code),
    values: kept(call),
  });
  if (call.intent === 'delete' && call.confirm.trim().toLowerCase() !== DELETE_WORD)
    return { ...refuse('generic'), error: `Type ${DELETE_WORD} to confirm` };
  const problem = invalid(call);
  if (problem !== null) return refuse(problem);
  let provider: ServerAuthProvider | null;
  try {
    provider = await open(readSessionCookie(request));
  } catch {
    return refuse('network-request-failed');
  }
  if (provider === null) return seeOther(LOGIN_FOR_ACCOUNT);
  try {
    await run(provider, call);
  } catch (error) {
    return refuse(error instanceof AuthError ? error.code : 'generic');
  }
  if (call.intent === 'delete')
    return seeOther(ACCOUNT_DELETED_PATH, { 'set-cookie': clearSessionCookieHeader(new URL(request.url)) });
  return seeOther(`/account?done=${call.intent}`);
}

/** The account operations a session may run from the page (`[]` without a server-side provider). */
export async function settingsOffered(
  request: Request,
  open: OpenSession<ServerAuthProvider> | null,
): Promise<readonly AccountOperation[]> {
  if (open === null) return [];
  const provider = await open(readSessionCookie(request)).catch(() => null);
  return provider?.account === undefined ? [] : (provider.capabilities.account ?? []);
}
