/**
 * `POST /account`: the account page's own forms (display name, password, other devices, deletion) on the
 * Supabase server, answered by the GoTrue TEST DOUBLE, as a browser without JavaScript posts them.
 */
import { createSupabaseServer } from '@doorway/adapter-supabase/server';
import { messageFor } from '@doorway/auth-core';
import { createGoTrueDouble } from '@doorway/gotrue-double';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELETED_PATH,
  accountSettings,
  readSettingsForm,
  type SettingsRefusal,
  settingsOffered,
} from '../app/account-settings.server.ts';
import { LOGIN_FOR_ACCOUNT } from '../app/session.server.ts';
import { ORIGIN, request } from './fakes.ts';

const PASSWORD = 'Secret-123';

function onDouble(withServiceKey = true) {
  const double = createGoTrueDouble({
    projectUrl: 'http://settings-double.supabase.test',
    mailerAutoconfirm: true,
  });
  const server = createSupabaseServer({
    url: double.projectUrl,
    anonKey: double.anonKey,
    fetch: double.fetch,
    ...(withServiceKey ? { serviceRoleKey: double.serviceRoleKey } : {}),
  });
  return { double, server };
}
type Server = ReturnType<typeof onDouble>['server'];

/** A new password account; its email and session cookie (its access token). */
async function signedUp(server: Server): Promise<{ email: string; cookie: string }> {
  const email = `settings-${Math.random().toString(36).slice(2)}@example.com`;
  const provider = server.formProvider();
  await provider.createUser(email, PASSWORD);
  return { email, cookie: provider.sessionToken() ?? '' };
}

/** Another device's session of the same account. */
async function signedInElsewhere(server: Server, email: string, password = PASSWORD): Promise<string> {
  const provider = server.formProvider();
  await provider.signInWithEmailAndPassword(email, password);
  return provider.sessionToken() ?? '';
}

const post = (server: Server, cookie: string | null, form: Record<string, string>, origin = ORIGIN) =>
  accountSettings(
    request('/account', {
      method: 'POST',
      origin,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie === null ? {} : { cookie: `doorway_session=${cookie}` }),
      },
      body: new URLSearchParams(form).toString(),
    }),
    [],
    (c) => server.accountProvider(c),
  );

const asResponse = (answer: Response | SettingsRefusal): Response => {
  if (!(answer instanceof Response)) throw new Error(`refused: ${answer.error}`);
  return answer;
};
const asRefusal = (answer: Response | SettingsRefusal): SettingsRefusal => {
  if (answer instanceof Response) throw new Error(`answered ${answer.status}`);
  return answer;
};

describe('POST /account (Supabase, GoTrue double)', () => {
  it('offers the forms the session can run: all four with a service-role key, no deletion without', async () => {
    const { server } = onDouble();
    const { cookie } = await signedUp(server);
    const page = request('/account', { headers: { cookie: `doorway_session=${cookie}` } });
    expect(await settingsOffered(page, (c) => server.accountProvider(c))).toEqual(
      expect.arrayContaining(['updateProfile', 'changePassword', 'signOutOtherSessions', 'deleteAccount']),
    );
    const keyless = onDouble(false).server;
    const other = await signedUp(keyless);
    const page2 = request('/account', { headers: { cookie: `doorway_session=${other.cookie}` } });
    expect(await settingsOffered(page2, (c) => keyless.accountProvider(c))).not.toContain('deleteAccount');
    expect(await settingsOffered(page, null)).toEqual([]);
    expect(await settingsOffered(request('/account'), (c) => server.accountProvider(c))).toEqual([]);
  });

  it('saves the display name, then clears it with a blank one', async () => {
    const { server } = onDouble();
    const { cookie } = await signedUp(server);
    const saved = asResponse(
      await post(server, cookie, { intent: 'profile', displayName: ' Ada Lovelace ' }),
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/account?done=profile');
    expect((await server.verifySession(cookie))?.user.displayName).toBe('Ada Lovelace');
    asResponse(await post(server, cookie, { intent: 'profile', displayName: '' }));
    expect((await server.verifySession(cookie))?.user.displayName ?? null).toBeNull();
  });

  it('refuses a wrong current password with the catalogue message, keeping no password', async () => {
    const { server } = onDouble();
    const { cookie } = await signedUp(server);
    const refused = asRefusal(
      await post(server, cookie, {
        intent: 'password',
        currentPassword: 'Wrong-999',
        newPassword: 'Better-456',
      }),
    );
    expect(refused).toEqual({
      intent: 'password',
      code: 'wrong-password',
      error: messageFor('wrong-password'),
      values: {},
    });
    expect(JSON.stringify(refused)).not.toMatch(/Wrong-999|Better-456/);
  });

  it('refuses an empty new password before asking the backend', async () => {
    const { server } = onDouble();
    const { cookie } = await signedUp(server);
    const refused = asRefusal(
      await post(server, cookie, { intent: 'password', currentPassword: PASSWORD, newPassword: '' }),
    );
    expect(refused.code).toBe('password-required');
    expect(refused.error).toBe('Enter your password');
  });

  it('changes the password: the new one signs in, the old one no longer does, this session stays', async () => {
    const { server } = onDouble();
    const { email, cookie } = await signedUp(server);
    const changed = asResponse(
      await post(server, cookie, {
        intent: 'password',
        currentPassword: PASSWORD,
        newPassword: 'Better-456',
      }),
    );
    expect(changed.headers.get('location')).toBe('/account?done=password');
    expect(await server.verifySession(cookie)).not.toBeNull();
    await expect(signedInElsewhere(server, email, 'Better-456')).resolves.not.toBe('');
    await expect(signedInElsewhere(server, email, PASSWORD)).rejects.toMatchObject({
      code: 'wrong-password',
    });
  });

  it('signs out every other device and keeps this one', async () => {
    const { server } = onDouble();
    const { email, cookie } = await signedUp(server);
    const elsewhere = await signedInElsewhere(server, email);
    expect(await server.verifySession(elsewhere)).not.toBeNull();
    const done = asResponse(await post(server, cookie, { intent: 'signOutOthers' }));
    expect(done.headers.get('location')).toBe('/account?done=signOutOthers');
    expect(await server.verifySession(elsewhere)).toBeNull();
    expect(await server.verifySession(cookie)).not.toBeNull();
  });

  it('deletes the account only once "delete" is typed, then clears the cookie; sign-in then fails', async () => {
    const { server } = onDouble();
    const { email, cookie } = await signedUp(server);
    const unconfirmed = asRefusal(await post(server, cookie, { intent: 'delete', confirm: 'yes' }));
    expect(unconfirmed).toMatchObject({
      intent: 'delete',
      error: 'Type delete to confirm',
      values: { confirm: 'yes' },
    });
    expect(await server.verifySession(cookie)).not.toBeNull();

    const deleted = asResponse(await post(server, cookie, { intent: 'delete', confirm: ' Delete ' }));
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe(ACCOUNT_DELETED_PATH);
    expect(deleted.headers.get('set-cookie')).toMatch(/doorway_session=;.*Max-Age=0/i);
    expect(await server.verifySession(cookie)).toBeNull();
    await expect(signedInElsewhere(server, email)).rejects.toMatchObject({ code: 'wrong-password' });
  });

  it('refuses deletion where the server has no service-role key', async () => {
    const { server } = onDouble(false);
    const { cookie } = await signedUp(server);
    const refused = asRefusal(await post(server, cookie, { intent: 'delete', confirm: 'delete' }));
    expect(refused.code).toBe('operation-not-allowed');
    expect(await server.verifySession(cookie)).not.toBeNull();
  });

  it('refuses what is not a same-origin form of this page, and sends a visitor without a session to sign in', async () => {
    const { server } = onDouble();
    const { cookie } = await signedUp(server);
    const crossOrigin = asResponse(
      await post(server, cookie, { intent: 'signOutOthers' }, 'https://evil.example'),
    );
    expect(crossOrigin.status).toBe(403);
    expect(asResponse(await post(server, cookie, { intent: 'format-disk' })).status).toBe(400);
    expect(
      asResponse(await post(server, cookie, { intent: 'profile', displayName: 'x'.repeat(101) })).status,
    ).toBe(400);
    const noSession = asResponse(await post(server, null, { intent: 'signOutOthers' }));
    expect(noSession.status).toBe(303);
    expect(noSession.headers.get('location')).toBe(LOGIN_FOR_ACCOUNT);
    const json = await accountSettings(
      request('/account', {
        method: 'POST',
        origin: ORIGIN,
        headers: { 'content-type': 'application/json', cookie: `doorway_session=${cookie}` },
        body: JSON.stringify({ intent: 'signOutOthers' }),
      }),
      [],
      (c) => server.accountProvider(c),
    );
    expect(asResponse(json).status).toBe(400);
    const unavailable = await accountSettings(
      request('/account', {
        method: 'POST',
        origin: ORIGIN,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'intent=signOutOthers',
      }),
      [],
      null,
    );
    expect(asResponse(unavailable).status).toBe(404);
  });

  it('reads each form, and only those', () => {
    const form = (fields: Record<string, string>) => readSettingsForm(new URLSearchParams(fields));
    expect(form({ intent: 'password', newPassword: 'a' })).toEqual({
      intent: 'password',
      newPassword: 'a',
      currentPassword: null,
    });
    expect(form({ intent: 'password' })).toBeNull();
    expect(form({ intent: 'delete' })).toBeNull();
    expect(form({})).toBeNull();
  });
});
