import { describe, expect, it } from 'vitest';
import { formatCountdown } from '../src/constants.ts';
import {
  validateCaptcha,
  validateCode,
  validateCountry,
  validateEmail,
  validateName,
  validateNewPassword,
  validatePassword,
  validatePhoneNumber,
} from '../src/rules.ts';

describe('validation rules (spec §5)', () => {
  it.each([
    ['', 'email-required'],
    ['   ', 'email-required'],
    ['ann', 'email-invalid'],
    ['ann@', 'email-invalid'],
    ['ann@example', 'email-invalid'],
    ['a b@example.com', 'email-invalid'],
    [`${'a'.repeat(250)}@example.com`, 'email-invalid'],
    ['ann@example.com', null],
    [' ann@example.com ', null],
    ["o'brien+tag@sub.example.co.uk", null],
  ])('email %j → %s', (value, key) => expect(validateEmail(value, undefined)).toBe(key));

  it('password is required; a new password needs 6 characters', () => {
    expect(validatePassword('', undefined)).toBe('password-required');
    expect(validatePassword('x', undefined)).toBeNull();
    expect(validateNewPassword('', undefined)).toBe('password-required');
    expect(validateNewPassword('abc12', undefined)).toBe('password-weak');
    expect(validateNewPassword('abc123', undefined)).toBeNull();
  });

  it('account name is required only when the field is enabled', () => {
    expect(validateName('  ', { required: true })).toBe('name-required');
    expect(validateName('', { required: false })).toBeNull();
    expect(validateName('Ann Lee', { required: true })).toBeNull();
  });

  it.each([
    ['123456', null],
    [' 123456 ', null],
    ['12345', 'code-invalid'],
    ['1234567', 'code-invalid'],
    ['12a456', 'code-invalid'],
    ['١٢٣٤٥٦', 'code-invalid'],
    ['', 'code-invalid'],
  ])('code %j → %s', (value, key) => expect(validateCode(value, undefined)).toBe(key));

  it('phone numbers must be E.164; countries must be supported; captcha must be solved', () => {
    expect(validatePhoneNumber('+15555550100', undefined)).toBeNull();
    expect(validatePhoneNumber('5555550100', undefined)).toBe('phone-invalid');
    expect(validatePhoneNumber('+0123', undefined)).toBe('phone-invalid');
    expect(validateCountry('US', { allowed: null, blocked: [] })).toBeNull();
    expect(validateCountry('us', { allowed: ['US'], blocked: [] })).toBeNull();
    expect(validateCountry('GB', { allowed: ['US'], blocked: [] })).toBe('country-unsupported');
    expect(validateCountry('KP', { allowed: null, blocked: ['KP'] })).toBe('country-unsupported');
    expect(validateCountry('', { allowed: null, blocked: [] })).toBe('country-unsupported');
    expect(validateCaptcha(false)).toBe('captcha-required');
    expect(validateCaptcha(true)).toBeNull();
  });

  it('formats the resend countdown as 0:NN', () => {
    expect(formatCountdown(15)).toBe('0:15');
    expect(formatCountdown(9)).toBe('0:09');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(75)).toBe('1:15');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});
