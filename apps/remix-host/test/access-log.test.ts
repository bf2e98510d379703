import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessLog, redactTarget } from '../access-log.mjs';

describe('access log', () => {
  it('keeps the path and the mode, redacts codes, keys and continue URLs', () => {
    expect(
      redactTarget(
        '/action?mode=resetPassword&oobCode=SECRET123&apiKey=fake-key&continueUrl=https%3A%2F%2Fx.example%2F%3Ft%3D1&lang=en',
      ),
    ).toBe('/action?mode=resetPassword&oobCode=[redacted]&apiKey=[redacted]&continueUrl=[redacted]&lang=en');
    expect(redactTarget('/action?token_hash=abc&type=recovery')).toBe(
      '/action?token_hash=[redacted]&type=recovery',
    );
    expect(redactTarget('/account')).toBe('/account');
  });

  it('redacts a kept name whose value is not plain', () => {
    expect(redactTarget('/action?mode=%3Cscript%3E')).toBe('/action?mode=[redacted]');
    expect(redactTarget('/x?%3Cb%3E=1')).toBe('/x?[name]=[redacted]');
  });

  it('never logs any value of a secret-bearing parameter (property)', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/);
    const name = fc.constantFrom('oobCode', 'token_hash', 'apiKey', 'continueUrl', 'code', 'access_token');
    fc.assert(
      fc.property(name, secret, fc.constantFrom('', 'mode=signIn&', 'lang=en&'), (key, value, prefix) => {
        const line = redactTarget(`/action?${prefix}${key}=${encodeURIComponent(value)}`);
        expect(line).not.toContain(value);
        expect(line).toContain(`${key}=[redacted]`);
      }),
      { numRuns: 300 },
    );
  });

  it('bounds what a huge or malformed target writes', () => {
    const line = redactTarget(`/${'a'.repeat(10_000)}?${'x=1&'.repeat(1000)}%E0%A4%A=`);
    expect(line.length).toBeLessThan(1000);
    expect(redactTarget('/x?%E0%A4%A=1')).toBe('/x?[name]=[redacted]');
  });

  it('the middleware writes one redacted line once the response finishes', () => {
    const lines: string[] = [];
    const res = Object.assign(new EventEmitter(), { statusCode: 200 });
    let nexted = false;
    accessLog((line) => lines.push(line))(
      { method: 'GET', originalUrl: '/action?mode=verifyEmail&oobCode=abc' },
      res,
      () => {
        nexted = true;
      },
    );
    expect(nexted).toBe(true);
    expect(lines).toEqual([]);
    res.emit('finish');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/action\?mode=verifyEmail&oobCode=\[redacted\] 200 \d+\.\d ms$/);
  });
});
