import { describe, expect, it } from 'vitest';
import { parseActionUrl } from '../src/actionUrl.ts';

describe('parseActionUrl', () => {
  it.each([
    'resetPassword',
    'recoverEmail',
    'revertSecondFactorAddition',
    'verifyEmail',
    'verifyAndChangeEmail',
    'signIn',
    'select',
  ])('reads mode %s with its code, continue URL, tenant and language', (mode) => {
    const url = `https://app.example/action?mode=${mode}&oobCode=AbC-1_2&continueUrl=%2Fdone&tenantId=acme&lang=fr`;
    expect(parseActionUrl(url)).toEqual({
      mode,
      oobCode: 'AbC-1_2',
      continueUrl: '/done',
      tenantId: 'acme',
      lang: 'fr',
    });
  });

  it.each([
    ['https://app.example/action', null],
    ['https://app.example/action?mode=deleteAccount&oobCode=x', null],
    ['https://app.example/action?mode=__proto__', null],
    ['not a url', null],
  ])('no or unknown mode %s → null', (url, expected) => expect(parseActionUrl(url)).toBe(expected));

  it.each(['', '<script>', 'a b', 'x'.repeat(3000), '%00'])(
    'an implausible oobCode %j becomes null',
    (code) => {
      const url = new URL('https://app.example/action?mode=verifyEmail');
      url.searchParams.set('oobCode', code);
      expect(parseActionUrl(url)?.oobCode).toBeNull();
    },
  );
});
