/**
 * The double's passkey routes as supabase-js's `auth.passkey` calls them (through `double.fetch`), the
 * ceremonies answered by the software authenticator of `@doorway/testing`: registration bound to its user,
 * discoverable sign-in to a session (`amr` `passkey`), single-use and expiring challenges, the relying
 * party's origins, the signature counter, and list / rename / delete, with GoTrue's error codes.
 */
import type { WebAuthnCreationOptionsJSON, WebAuthnRequestOptionsJSON } from '@doorway/auth-core';
import { createSoftAuthenticator, type SoftAuthenticator } from '@doorway/testing/soft-authenticator';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createGoTrueDouble, type GoTrueDouble, type GoTrueDoubleOptions } from '../src/index.ts';
import { call, claims, type Json, signIn } from './calls.ts';

const ORIGIN = 'http://localhost:3000';

function newDouble(options: GoTrueDoubleOptions = {}): GoTrueDouble {
  return createGoTrueDouble({ projectUrl: 'http://passkey-double.supabase.test', ...options });
}

/** `auth.passkey.startRegistration` then the authenticator then `verifyRegistration`. */
async function register(double: GoTrueDouble, authenticator: SoftAuthenticator, token: string) {
  const started = await call(double, 'POST', '/passkeys/registration/options', token, {});
  expect(started.status).toBe(200);
  const options = started.body.options as WebAuthnCreationOptionsJSON;
  const credential = await authenticator.create(options);
  return call(double, 'POST', '/passkeys/registration/verify', token, {
    challenge_id: started.body.challenge_id,
    credential,
  });
}

/** `auth.passkey.startAuthentication`: the challenge's id and the options. */
async function startSignIn(
  double: GoTrueDouble,
): Promise<{ id: string; options: WebAuthnRequestOptionsJSON }> {
  const started = await call(double, 'POST', '/passkeys/authentication/options', null, {
    gotrue_meta_security: {},
  });
  expect(started.status).toBe(200);
  return {
    id: String(started.body.challenge_id),
    options: started.body.options as WebAuthnRequestOptionsJSON,
  };
}

/** A discoverable sign-in answered by the authenticator: the verify response. */
async function passkeySignIn(double: GoTrueDouble, authenticator: SoftAuthenticator) {
  const { id, options } = await startSignIn(double);
  const credential = await authenticator.get(options, { conditional: false });
  return call(double, 'POST', '/passkeys/authentication/verify', null, { challenge_id: id, credential });
}

/** A double, its authenticator on the Site URL's origin, and a signed-in user with one passkey. */
async function withPasskey(options: GoTrueDoubleOptions = {}, email = 'passkey@example.com') {
  const double = newDouble(options);
  const authenticator = createSoftAuthenticator({ origin: ORIGIN });
  const token = await signIn(double, email);
  const added = await register(double, authenticator, token);
  expect(added.status).toBe(200);
  return { double, authenticator, token, passkeyId: String(added.body.id) };
}

describe('GoTrue double: passkey registration', () => {
  it('options for the signed-in user (resident key, no attestation, its passkeys excluded); verify answers the passkey', async () => {
    const double = newDouble();
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const token = await signIn(double, 'register@example.com');
    const uid = String(claims(token).sub);
    const started = await call(double, 'POST', '/passkeys/registration/options', token, {});
    expect(started.status).toBe(200);
    expect(started.body.challenge_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(started.body.expires_at) * 1000).toBeGreaterThan(double.clock.now() + 290_000);
    const options = started.body.options as WebAuthnCreationOptionsJSON;
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'localhost' },
      user: { id: Buffer.from(uid).toString('base64url'), name: 'register@example.com' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      excludeCredentials: [],
    });
    const credential = await authenticator.create(options);
    const verified = await call(double, 'POST', '/passkeys/registration/verify', token, {
      challenge_id: started.body.challenge_id,
      credential,
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      id: expect.any(String),
      friendly_name: 'Passkey',
      created_at: expect.any(String),
    });
    const next = await call(double, 'POST', '/passkeys/registration/options', token, {});
    expect((next.body.options as WebAuthnCreationOptionsJSON).excludeCredentials).toEqual([
      expect.objectContaining({ id: credential.id, type: 'public-key' }),
    ]);
    const listed = await call(double, 'GET', '/passkeys', token);
    expect(listed.body).toEqual([verified.body]);
  });

  it('a challenge answers once, for its own user only, and not after it expired', async () => {
    const double = newDouble();
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const token = await signIn(double, 'once@example.com');
    const other = await signIn(double, 'other@example.com');
    const started = await call(double, 'POST', '/passkeys/registration/options', token, {});
    const credential = await authenticator.create(started.body.options as WebAuthnCreationOptionsJSON);
    const body = { challenge_id: started.body.challenge_id, credential };
    const stolen = await call(double, 'POST', '/passkeys/registration/verify', other, body);
    expect([stolen.status, stolen.body.code]).toEqual([400, 'webauthn_challenge_not_found']);
    expect((await call(double, 'POST', '/passkeys/registration/verify', token, body)).status).toBe(200);
    const again = await call(double, 'POST', '/passkeys/registration/verify', token, body);
    expect([again.status, again.body.code]).toEqual([400, 'webauthn_challenge_not_found']);
    const late = await call(double, 'POST', '/passkeys/registration/options', token, {});
    double.clock.advance(301_000);
    const expired = await call(double, 'POST', '/passkeys/registration/verify', token, {
      challenge_id: late.body.challenge_id,
      credential,
    });
    expect([expired.status, expired.body.code]).toEqual([400, 'webauthn_challenge_expired']);
  });

  it('refuses malformed bodies, another origin, anonymous users and a user at its passkey limit', async () => {
    const double = newDouble({ anonymousUsers: true, passkey: { maxPasskeysPerUser: 1 } });
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const token = await signIn(double, 'limits@example.com');
    const verify = (body: unknown) => call(double, 'POST', '/passkeys/registration/verify', token, body);
    expect((await verify({ credential: {} })).body.code).toBe('validation_failed');
    expect((await verify({ challenge_id: 'nope', credential: {} })).body.code).toBe('validation_failed');
    const started = await call(double, 'POST', '/passkeys/registration/options', token, {});
    authenticator.originNext('https://phishing.example');
    const credential = await authenticator.create(started.body.options as WebAuthnCreationOptionsJSON);
    const phished = await verify({ challenge_id: started.body.challenge_id, credential });
    expect([phished.status, phished.body.code]).toEqual([400, 'webauthn_verification_failed']);
    expect((await register(double, authenticator, token)).status).toBe(200);
    const full = await call(double, 'POST', '/passkeys/registration/options', token, {});
    expect([full.status, full.body.code]).toEqual([422, 'too_many_passkeys']);
    // Only the anon key as the bearer: a JWT with no user.
    const nobody = await call(double, 'POST', '/passkeys/registration/options', null, {});
    expect([nobody.status, nobody.body.code]).toEqual([403, 'bad_jwt']);
    const anonymous = await call(double, 'POST', '/signup', null, {});
    const refused = await call(
      double,
      'POST',
      '/passkeys/registration/options',
      String(anonymous.body.access_token),
      {},
    );
    expect([refused.status, refused.body.code]).toEqual([403, 'no_authorization']);
  });
});

describe('GoTrue double: passkey sign-in', () => {
  it('discoverable options (no allowed credentials); the assertion signs the user in with amr passkey', async () => {
    const { double, authenticator, token } = await withPasskey();
    const { options } = await startSignIn(double);
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'preferred' });
    expect(options.allowCredentials ?? []).toEqual([]);
    const signedIn = await passkeySignIn(double, authenticator);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      user: { id: claims(token).sub, email: 'passkey@example.com' },
    });
    expect(claims(signedIn.body.access_token)).toMatchObject({ aal: 'aal1', amr: [{ method: 'passkey' }] });
    const listed = await call(double, 'GET', '/passkeys', String(signedIn.body.access_token));
    expect(listed.body).toEqual([expect.objectContaining({ last_used_at: expect.any(String) })]);
  });

  it('refuses a challenge answered twice, a replayed assertion, another origin and an expired challenge', async () => {
    const { double, authenticator } = await withPasskey();
    const { id, options } = await startSignIn(double);
    const credential = await authenticator.get(options, { conditional: false });
    const verify = (challenge: string, answer: unknown) =>
      call(double, 'POST', '/passkeys/authentication/verify', null, {
        challenge_id: challenge,
        credential: answer,
      });
    expect((await verify(id, credential)).status).toBe(200);
    const twice = await verify(id, credential);
    expect([twice.status, twice.body.code]).toEqual([400, 'webauthn_challenge_not_found']);
    authenticator.replayNext();
    const replayed = await passkeySignIn(double, authenticator);
    expect([replayed.status, replayed.body.code]).toEqual([400, 'webauthn_verification_failed']);
    authenticator.originNext('https://phishing.example');
    const phished = await passkeySignIn(double, authenticator);
    expect([phished.status, phished.body.code]).toEqual([400, 'webauthn_verification_failed']);
    const late = await startSignIn(double);
    const answer = await authenticator.get(late.options, { conditional: false });
    double.clock.advance(301_000);
    const expired = await verify(late.id, answer);
    expect([expired.status, expired.body.code]).toEqual([400, 'webauthn_challenge_expired']);
  });

  it('a counter that did not rise is kept, not refused, as GoTrue does; refused with refuseCounterRegression', async () => {
    const { double, authenticator } = await withPasskey();
    expect((await passkeySignIn(double, authenticator)).status).toBe(200);
    const counter = () =>
      (double.snapshot().users[0] as { passkeys: { signCount: number }[] }).passkeys[0]?.signCount;
    expect(counter()).toBe(1);
    authenticator.holdCounterNext();
    expect((await passkeySignIn(double, authenticator)).status).toBe(200);
    expect(counter()).toBe(1);
    const strict = await withPasskey({ passkey: { refuseCounterRegression: true } });
    expect((await passkeySignIn(strict.double, strict.authenticator)).status).toBe(200);
    strict.authenticator.holdCounterNext();
    const held = await passkeySignIn(strict.double, strict.authenticator);
    expect([held.status, held.body.code]).toEqual([400, 'webauthn_verification_failed']);
  });

  it('a banned user is refused; the passkeys survive a snapshot', async () => {
    const { double, authenticator, token } = await withPasskey();
    const restored = newDouble({ state: double.snapshot() });
    expect((await passkeySignIn(restored, authenticator)).status).toBe(200);
    double.admin.updateUserById(String(claims(token).sub), { ban_duration: '876000h' });
    const banned = await passkeySignIn(double, authenticator);
    expect([banned.status, banned.body.code]).toEqual([403, 'user_banned']);
  });
});

describe('GoTrue double: managing passkeys', () => {
  it('PATCH renames (1 to 120 characters); DELETE answers 204, after which the passkey signs nobody in', async () => {
    const { double, authenticator, token, passkeyId } = await withPasskey();
    const renamed = await call(double, 'PATCH', `/passkeys/${passkeyId}`, token, { friendly_name: 'Laptop' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ id: passkeyId, friendly_name: 'Laptop', created_at: expect.any(String) });
    const empty = await call(double, 'PATCH', `/passkeys/${passkeyId}`, token, { friendly_name: '' });
    expect([empty.status, empty.body.code]).toEqual([400, 'validation_failed']);
    const long = await call(double, 'PATCH', `/passkeys/${passkeyId}`, token, {
      friendly_name: 'x'.repeat(121),
    });
    expect([long.status, long.body.code]).toEqual([400, 'validation_failed']);
    const notUuid = await call(double, 'DELETE', '/passkeys/not-a-passkey', token);
    expect([notUuid.status, notUuid.body.code, notUuid.body.message]).toEqual([
      404,
      'validation_failed',
      'Passkey not found',
    ]);
    const deleted = await double.fetch(`${double.authUrl}/passkeys/${passkeyId}`, {
      method: 'DELETE',
      headers: { apikey: double.anonKey, authorization: `Bearer ${token}` },
    });
    expect([deleted.status, await deleted.text()]).toEqual([204, '']);
    expect((await call(double, 'GET', '/passkeys', token)).body).toEqual([]);
    const gone = await call(double, 'DELETE', `/passkeys/${passkeyId}`, token);
    expect([gone.status, gone.body.code]).toEqual([404, 'validation_failed']);
    const refused = await passkeySignIn(double, authenticator);
    expect([refused.status, refused.body.code]).toEqual([400, 'webauthn_verification_failed']);
  });

  it('a user with a verified factor adds and deletes passkeys only at aal2 (insufficient_aal); renames at aal1', async () => {
    const { double, authenticator, token, passkeyId } = await withPasskey();
    const enrolled = await call(double, 'POST', '/factors', token, { factor_type: 'totp' });
    const secret = Secret.fromBase32(String((enrolled.body.totp as Json).secret));
    const challenge = await call(double, 'POST', `/factors/${enrolled.body.id}/challenge`, token, {});
    const verified = await call(double, 'POST', `/factors/${enrolled.body.id}/verify`, token, {
      challenge_id: challenge.body.id,
      code: TOTP.generate({ secret, timestamp: double.clock.now() }),
    });
    const aal2 = String(verified.body.access_token);
    const aal1 = await signIn(double, 'passkey@example.com');
    expect(claims(aal1)).toMatchObject({ aal: 'aal1' });
    for (const [method, path] of [
      ['POST', '/passkeys/registration/options'],
      ['DELETE', `/passkeys/${passkeyId}`],
    ] as const) {
      const refused = await call(double, method, path, aal1, method === 'POST' ? {} : undefined);
      expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_aal']);
    }
    const renamed = await call(double, 'PATCH', `/passkeys/${passkeyId}`, aal1, { friendly_name: 'Laptop' });
    expect(renamed.status).toBe(200);
    authenticator.forget(authenticator.credentials()[0]?.id ?? '');
    expect((await register(double, authenticator, aal2)).status).toBe(200);
    const signedIn = await passkeySignIn(double, authenticator);
    // A passkey signs in at aal1: the account's second factor is still to come.
    expect(claims(signedIn.body.access_token)).toMatchObject({ aal: 'aal1', amr: [{ method: 'passkey' }] });
  });

  it('another user cannot see, rename or delete the passkey', async () => {
    const { double, passkeyId } = await withPasskey();
    const other = await signIn(double, 'someone-else@example.com');
    expect((await call(double, 'GET', '/passkeys', other)).body).toEqual([]);
    const renamed = await call(double, 'PATCH', `/passkeys/${passkeyId}`, other, { friendly_name: 'Mine' });
    expect([renamed.status, renamed.body.code]).toEqual([404, 'validation_failed']);
    const deleted = await call(double, 'DELETE', `/passkeys/${passkeyId}`, other);
    expect([deleted.status, deleted.body.code]).toEqual([404, 'validation_failed']);
  });

  it('with passkeys off every route answers 404 passkey_disabled, and /settings says so', async () => {
    const double = newDouble({ passkey: { enabled: false } });
    const token = await signIn(double, 'off@example.com');
    for (const [method, path] of [
      ['POST', '/passkeys/registration/options'],
      ['POST', '/passkeys/authentication/options'],
      ['POST', '/passkeys/authentication/verify'],
      ['GET', '/passkeys'],
    ] as const) {
      const answer = await call(double, method, path, token, method === 'GET' ? undefined : {});
      expect([answer.status, answer.body.code]).toEqual([404, 'passkey_disabled']);
    }
    expect(double.settings()).toMatchObject({ passkeys_enabled: false });
    expect(newDouble().settings()).toMatchObject({ passkeys_enabled: true });
  });
});
