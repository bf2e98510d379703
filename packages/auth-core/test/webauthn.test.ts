import { describe, expect, it } from 'vitest';
import { passkeyCeremonyCode } from '../src/index.ts';

describe('passkeyCeremonyCode', () => {
  it.each([
    ['NotAllowedError', 'user-cancelled'],
    ['AbortError', 'user-cancelled'],
    ['NotSupportedError', 'passkeys-unsupported'],
    ['InvalidStateError', 'credential-already-in-use'],
    ['SecurityError', 'passkeys-unsupported'],
    ['UnknownError', 'generic'],
  ] as const)('a %s is %s', (name, code) => {
    expect(passkeyCeremonyCode(new DOMException('The ceremony failed.', name))).toBe(code);
  });

  it('reads the name of any error-like value', () => {
    expect(passkeyCeremonyCode({ name: 'NotAllowedError' })).toBe('user-cancelled');
    const error = new Error('no');
    error.name = 'InvalidStateError';
    expect(passkeyCeremonyCode(error)).toBe('credential-already-in-use');
  });

  it.each([undefined, null, 'NotAllowedError', 42, {}, new Error('boom')])('%s is generic', (value) => {
    expect(passkeyCeremonyCode(value)).toBe('generic');
  });
});
