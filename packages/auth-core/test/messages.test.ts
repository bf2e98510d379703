import { describe, expect, it } from 'vitest';
import { errorMessages, messageFor, validationMessages } from '../src/messages.ts';

// Spec §5 and §8, copied word for word from the spec: condition → catalogue code → exact text.
const SPEC_5: [string, keyof typeof validationMessages, string][] = [
  ['Email, empty', 'email-required', 'Enter your email address to continue'],
  ['Email, invalid', 'email-invalid', "That email address isn't correct"],
  ['Password', 'password-required', 'Enter your password'],
  ['Account name', 'name-required', 'Enter your account name'],
  ['Phone confirmation code', 'code-invalid', 'Wrong code. Try again.'],
  ['Country code', 'country-unsupported', 'The country code provided is not supported.'],
  ['Captcha', 'captcha-required', 'Solve the reCAPTCHA'],
];

const SPEC_8: [string, keyof typeof errorMessages, string][] = [
  ['email-already-in-use', 'email-already-in-use', 'The email address is already used by another account'],
  [
    'too-many-requests (password)',
    'too-many-requests',
    'You have entered an incorrect password too many times. Please try again in a few minutes.',
  ],
  [
    'user-cancelled',
    'user-cancelled',
    'Please authorize the required permissions to sign in to the application',
  ],
  ['user-not-found', 'user-not-found', "That email address doesn't match an existing account"],
  ['wrong-password', 'wrong-password', "The email and password you entered don't match"],
  ['network-request-failed', 'network-request-failed', 'A network error has occurred'],
  ['invalid-verification-code', 'invalid-verification-code', 'Wrong code. Try again.'],
  ['code-expired', 'code-expired', 'This code is no longer valid'],
  ['expired-action-code', 'expired-action-code', 'This code has expired.'],
  [
    'invalid-action-code',
    'invalid-action-code',
    'The action code is invalid. This can happen if the code is malformed, expired, or has already been used.',
  ],
  [
    'sign-up too many requests',
    'sign-up-too-many-requests',
    'Too many account requests are coming from your IP address. Try again in a few minutes.',
  ],
  ['phone too many uses', 'phone-too-many-requests', 'This phone number has been used too many times'],
  ['session expired', 'session-expired', 'Your sign-in session has expired. Please try again.'],
  [
    'email mismatch on link',
    'email-mismatch',
    'The email provided does not match the current sign-in session.',
  ],
  [
    'web storage unsupported',
    'web-storage-unsupported',
    'The browser you are using does not support Web Storage. Please try again in a different browser.',
  ],
  ['generic', 'generic', 'Something went wrong. Please try again.'],
  ['re-authentication needed', 'requires-recent-login', 'Please login again to perform this operation'],
];

describe('message catalogue', () => {
  it.each(SPEC_5)('spec §5 "%s" → %s → exact message', (_condition, key, text) => {
    expect(validationMessages[key]).toBe(text);
    expect(messageFor(key)).toBe(text);
  });

  it.each(SPEC_8)('spec §8 "%s" → %s → exact message', (_condition, code, text) => {
    expect(errorMessages[code]).toBe(text);
    expect(messageFor(code)).toBe(text);
  });

  it('weak-password uses the hint wording of spec §5/§8 (at least 6 characters with letters and numbers)', () => {
    expect(errorMessages['weak-password']).toContain('at least 6 characters with letters and numbers');
    expect(validationMessages['password-weak']).toBe(errorMessages['weak-password']);
  });

  it('the passkey codes have short messages that offer another way in', () => {
    for (const code of [
      'passkey-not-found',
      'passkey-invalid',
      'passkeys-unsupported',
      'passkey-cancelled',
    ] as const) {
      expect(messageFor(code)).toBe(errorMessages[code]);
      expect(errorMessages[code]).toMatch(/another way to sign in\.$/);
      expect(errorMessages[code].length).toBeLessThan(80);
    }
  });

  it('passkey-limit says the account is full and what to do', () => {
    expect(messageFor('passkey-limit')).toBe(
      "You can't add more passkeys to this account. Remove one first.",
    );
  });

  it('unknown codes, null and prototype keys fall back to the generic message', () => {
    for (const key of ['auth/internal-error', '', 'constructor', '__proto__', 'toString', null, undefined]) {
      expect(messageFor(key)).toBe('Something went wrong. Please try again.');
    }
  });

  it('every message is plain text (no markup a renderer could interpret)', () => {
    for (const text of [...Object.values(errorMessages), ...Object.values(validationMessages)]) {
      expect(text).not.toMatch(/[<>]/);
      expect(text.trim()).toBe(text);
    }
  });
});
