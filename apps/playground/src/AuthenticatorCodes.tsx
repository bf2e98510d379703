/**
 * What the accounts' authenticator apps show now: the side panel lists the current code of every
 * authenticator app of the backend's accounts, and of every authenticator app being added, refreshed every
 * second (codes change every 30 seconds).
 * @module
 */
import type { FakeBackend } from '@doorway/adapter-fake';
import { useEffect, useReducer } from 'react';

/** One authenticator app's current code. */
export interface AuthenticatorCode {
  key: string;
  /** The account's email (or phone number, or uid). */
  account: string;
  /** The app's name, or that it is being added. */
  app: string;
  code: string;
}

/**
 * The current codes of the fake's accounts (of the current tenant): each authenticator app, then the one
 * being added, if any. `totpCode(uid)` gives the app being added before the latest enrolled one, so an
 * account with apps is adding one when that code is not its latest app's (two secrets showing the same code
 * at once would hide the new one for those 30 seconds, one time in a million).
 */
export function fakeAuthenticatorCodes(backend: FakeBackend): AuthenticatorCode[] {
  return backend.listUsers().flatMap((user) => {
    const account = user.email ?? user.phoneNumber ?? user.uid;
    const apps = user.secondFactors.flatMap((factor) => {
      const code = factor.kind === 'totp' ? backend.totpCode(user.uid, factor.uid) : null;
      return code === null
        ? []
        : [{ key: factor.uid, account, app: factor.displayName ?? 'Authenticator app', code }];
    });
    const current = backend.totpCode(user.uid);
    const adding = current !== null && current !== apps.at(-1)?.code;
    return adding
      ? [...apps, { key: `${user.uid}:adding`, account, app: 'being added', code: current }]
      : apps;
  });
}

/** The codes, newest state every second; nothing when no account has an authenticator app. */
export function AuthenticatorCodes({ read }: { read: () => readonly AuthenticatorCode[] }) {
  const [, tick] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, []);
  const codes = read();
  if (codes.length === 0) return null;
  return (
    <ul className="playground-outbox" aria-label="Authenticator apps">
      {codes.map((c) => (
        <li key={c.key}>
          {c.account}, {c.app}: code <code data-testid="totp-code">{c.code}</code>
        </li>
      ))}
    </ul>
  );
}
