import type { WebAuthnCreationOptionsJSON, WebAuthnRequestOptionsJSON } from '@doorway/auth-core';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { createSoftAuthenticator, rpIdFitsOrigin } from '../src/softAuthenticator.ts';

const ORIGIN = 'https://app.example.com';
const RP_ID = 'example.com';

async function registration(rpID = RP_ID): Promise<WebAuthnCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: 'Doorway',
    rpID,
    userName: 'ada@example.com',
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

async function registered() {
  const authenticator = createSoftAuthenticator({ origin: ORIGIN });
  const options = await registration();
  const response = await authenticator.create(options);
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
  });
  expect(verification.verified).toBe(true);
  const info = verification.registrationInfo;
  if (info === undefined) throw new Error('no registration info');
  return { authenticator, credential: info.credential, info };
}

async function assertion(credential: WebAuthnCredential) {
  const options: WebAuthnRequestOptionsJSON = await generateAuthenticationOptions({
    rpID: RP_ID,
    userVerification: 'required',
  });
  return { options, credential };
}

describe('createSoftAuthenticator', () => {
  it('registers a credential whose none attestation verifies, backed up, with a COSE ES256 key', async () => {
    const { authenticator, credential, info } = await registered();
    expect(info.fmt).toBe('none');
    expect(info.credentialBackedUp).toBe(true);
    expect(info.credentialDeviceType).toBe('multiDevice');
    expect(info.userVerified).toBe(true);
    expect(authenticator.credentials()).toEqual([
      expect.objectContaining({ id: credential.id, rpId: RP_ID, signCount: 0, backedUp: true }),
    ]);
  });

  it('signs discoverable assertions that verify, its counter rising each time', async () => {
    const { authenticator, credential } = await registered();
    let counter = credential.counter;
    for (const expected of [1, 2]) {
      const { options } = await assertion(credential);
      const response = await authenticator.get(options, { conditional: false });
      expect(response.response.userHandle).toBe(authenticator.credentials()[0]?.userHandle);
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: options.challenge,
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
        credential: { ...credential, counter },
        requireUserVerification: true,
      });
      expect(result.verified).toBe(true);
      expect(result.authenticationInfo.newCounter).toBe(expected);
      counter = result.authenticationInfo.newCounter;
    }
  });

  it('refuses an RP id that does not fit its origin, as a browser does (SecurityError)', async () => {
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    await expect(authenticator.create(await registration('other.test'))).rejects.toMatchObject({
      name: 'SecurityError',
    });
    expect(rpIdFitsOrigin('example.com', 'https://app.example.com')).toBe(true);
    expect(rpIdFitsOrigin('localhost', 'http://localhost:5173')).toBe(true);
    expect(rpIdFitsOrigin('example.com', 'http://example.com')).toBe(false);
    expect(rpIdFitsOrigin('example.com', 'https://notexample.com')).toBe(false);
  });

  it('cancels, replays, claims another origin and holds its counter when told, once each', async () => {
    const { authenticator, credential } = await registered();
    const { options } = await assertion(credential);
    authenticator.cancelNext();
    await expect(authenticator.get(options, { conditional: false })).rejects.toMatchObject({
      name: 'NotAllowedError',
    });
    const first = await authenticator.get(options, { conditional: false });
    authenticator.replayNext();
    expect(await authenticator.get(options, { conditional: false })).toEqual(first);
    authenticator.originNext('https://evil.test');
    const relayed = await authenticator.get(options, { conditional: false });
    const origin = JSON.parse(Buffer.from(relayed.response.clientDataJSON, 'base64url').toString()).origin;
    expect(origin).toBe('https://evil.test');
    const count = authenticator.credentials()[0]?.signCount;
    authenticator.holdCounterNext();
    await authenticator.get(options, { conditional: false });
    expect(authenticator.credentials()[0]?.signCount).toBe(count);
  });

  it('with no credential for the RP id, or an aborted signal, rejects as a browser does', async () => {
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const options = await generateAuthenticationOptions({ rpID: RP_ID });
    await expect(authenticator.get(options, { conditional: false })).rejects.toMatchObject({
      name: 'NotAllowedError',
    });
    const controller = new AbortController();
    controller.abort();
    await expect(
      authenticator.get(options, { conditional: true, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
