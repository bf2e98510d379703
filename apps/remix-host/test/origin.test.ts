import { safeRedirectTarget } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { isTrustedOrigin, requestOrigins, trustedOrigins } from '../app/origin.server.ts';
import { request } from './fakes.ts';

/** A redirect target as the form path checks one: over the request's trusted origins, else `fallback`. */
const safeTarget = (url: string, req: Request, allowed: readonly string[], fallback: string | null = null) =>
  safeRedirectTarget(url, requestOrigins(req, allowed).trusted, fallback);

describe('isTrustedOrigin', () => {
  const post = (origin: string | null, headers: Record<string, string> = {}) =>
    request('/session', { method: 'POST', origin, headers });

  it('should accept the request’s own origin and the allowed origins', () => {
    expect(isTrustedOrigin(post('http://127.0.0.1:3000'), [])).toBe(true);
    expect(isTrustedOrigin(post('https://app.example.com'), ['https://app.example.com'])).toBe(true);
  });

  it('should refuse other origins, "null", and look-alikes', () => {
    for (const origin of [
      'https://evil.example',
      'null',
      'http://127.0.0.1:3001',
      'https://127.0.0.1:3000',
      'http://127.0.0.1:3000.evil.example',
      'http://localhost:3000',
    ]) {
      expect(isTrustedOrigin(post(origin), ['https://app.example.com']), origin).toBe(false);
    }
  });

  it('should accept a request without Origin only when the browser marks it same-origin', () => {
    expect(isTrustedOrigin(post(null), [])).toBe(false);
    expect(isTrustedOrigin(post(null, { 'sec-fetch-site': 'cross-site' }), [])).toBe(false);
    expect(isTrustedOrigin(post(null, { 'sec-fetch-site': 'same-origin' }), [])).toBe(true);
  });
});

describe('safeTarget', () => {
  const req = request('/login');

  it('should keep same-origin targets as paths and allowed origins as absolute URLs', () => {
    expect(trustedOrigins(req, ['https://app.example.com'])).toEqual([
      'http://127.0.0.1:3000',
      'https://app.example.com',
    ]);
    expect(safeTarget('/account?tab=1#top', req, [])).toBe('/account?tab=1#top');
    expect(safeTarget('http://127.0.0.1:3000/account', req, [])).toBe('/account');
    expect(safeTarget('https://app.example.com/x', req, ['https://app.example.com'])).toBe(
      'https://app.example.com/x',
    );
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    'https:evil.example',
    'http://user@127.0.0.1:3000/account',
    '%2F%2Fevil.example',
    'data:text/html,hi',
    'java\tscript:alert(1)',
    // Resolve to `//evil.example` on this origin (issue 12).
    '/..//evil.example',
    '/.//evil.example',
    '/%2e%2e//evil.example',
    '/x/..//evil.example',
    'http://127.0.0.1:3000//evil.example',
    'http://127.0.0.1:3000/..//evil.example',
  ])('should fall back for %j', (hostile) => {
    expect(safeTarget(hostile, req, [], '/account')).toBe('/account');
    expect(safeTarget(hostile, req, [])).toBeNull();
  });
});
