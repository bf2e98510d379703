import { AuthError } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { expectAuthError, oobCodeFromLink } from '../src/index.ts';

describe('oobCodeFromLink', () => {
  it('reads the oobCode query value of a link', () => {
    expect(oobCodeFromLink('https://app.test/finish?mode=signIn&oobCode=abc&apiKey=k')).toBe('abc');
  });

  it('looks inside nested link, deep_link_id and continueUrl values', () => {
    const inner = 'https://app.test/action?mode=resetPassword&oobCode=xyz';
    for (const name of ['link', 'deep_link_id', 'continueUrl']) {
      const outer = `https://hosted.test/__/auth/links?${name}=${encodeURIComponent(inner)}`;
      expect(oobCodeFromLink(outer)).toBe('xyz');
    }
  });

  it('is null for a link without a code, an empty code or text that is not a URL', () => {
    expect(oobCodeFromLink('https://app.test/finish?mode=signIn')).toBeNull();
    expect(oobCodeFromLink('https://app.test/finish?oobCode=')).toBeNull();
    expect(oobCodeFromLink('not a url')).toBeNull();
  });

  it('stops looking after three levels of nesting', () => {
    let link = 'https://app.test/action?oobCode=deep';
    for (let level = 0; level < 4; level += 1) link = `https://hop.test/?link=${encodeURIComponent(link)}`;
    expect(oobCodeFromLink(link)).toBeNull();
  });
});

describe('expectAuthError', () => {
  it('returns the AuthError of the expected code', async () => {
    const thrown = new AuthError('weak-password');
    await expect(expectAuthError(Promise.reject(thrown), 'weak-password')).resolves.toBe(thrown);
  });

  it('accepts any one of several codes', async () => {
    const error = await expectAuthError(Promise.reject(new AuthError('credential-already-in-use')), [
      'email-already-in-use',
      'credential-already-in-use',
    ]);
    expect(error.code).toBe('credential-already-in-use');
  });

  it('fails when the promise resolves, rejects with another code, or rejects with something else', async () => {
    await expect(expectAuthError(Promise.resolve('ok'), 'weak-password')).rejects.toThrow(/resolved/);
    await expect(
      expectAuthError(Promise.reject(new AuthError('invalid-email')), 'weak-password'),
    ).rejects.toThrow();
    await expect(expectAuthError(Promise.reject(new Error('boom')), 'weak-password')).rejects.toThrow();
  });
});
