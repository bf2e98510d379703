import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSafeRedirectUrl, safeRedirect, safeRedirectTarget } from '../src/redirect.ts';

const ORIGINS = ['https://app.example', 'https://partner.example'];

describe('safeRedirect', () => {
  it.each([
    ['/account', 'https://app.example/account'],
    ['/account?tab=1#top', 'https://app.example/account?tab=1#top'],
    ['?next=1', 'https://app.example/?next=1'],
    ['https://app.example/done', 'https://app.example/done'],
    ['https://partner.example/x', 'https://partner.example/x'],
    ['HTTPS://APP.EXAMPLE/x', 'https://app.example/x'],
  ])('keeps the safe %s', (url, expected) => {
    expect(safeRedirect(url, ORIGINS)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'javascript%3Aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example',
    '//evil.example/path',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example',
    'https://app.example.evil.example/',
    'https://app.example@evil.example/',
    'https://user:pass@app.example/',
    'http://app.example/',
    'https://app.example:444/',
    '%2F%2Fevil.example',
    'https:evil.example',
    'evil.example',
    'ftp://app.example/',
    'https://evil.example\n/',
    '',
    `/${'a'.repeat(5000)}`,
  ])('refuses %j', (url) => {
    expect(isSafeRedirectUrl(url, ORIGINS)).toBe(false);
    expect(safeRedirect(url, ORIGINS)).toBeNull();
    expect(safeRedirect(url, ORIGINS, '/')).toBe('https://app.example/');
  });

  it('an unsafe fallback is refused too', () => {
    expect(safeRedirect('//evil.example', ORIGINS, 'https://evil.example')).toBeNull();
  });

  it('refuses everything when no origin is allowed', () => {
    expect(safeRedirect('/x', [])).toBeNull();
  });
});

/**
 * Values that once resolved to `//evil.example` on this origin and came back as a protocol-relative path.
 * @see issue 12
 */
const RESOLVES_OFF_ORIGIN = [
  '/..//evil.example',
  '/.//evil.example',
  '/%2e%2e//evil.example',
  '/%2E%2E//evil.example',
  '/%2e//evil.example',
  '/x/..//evil.example',
  '/x/../..//evil.example',
  '/a/b/../../..//evil.example',
  '/./..//evil.example/path',
  '/..//evil.example?x=1',
  '/..//evil.example#frag',
  '/.%2e//evil.example',
  '/%2e.//evil.example',
  'https://app.example//evil.example',
  'https://app.example/..//evil.example',
  'https://app.example/x/..//evil.example',
  '/%2F%2Fevil.example',
  '/%2f/evil.example',
  '/%5Cevil.example',
  '/%252F%252Fevil.example',
];

describe('safeRedirect on resolved URLs (issue 12)', () => {
  it.each(RESOLVES_OFF_ORIGIN)('refuses %j, whose resolved path would leave the origin', (url) => {
    expect(isSafeRedirectUrl(url, ORIGINS)).toBe(false);
    expect(safeRedirect(url, ORIGINS, '/')).toBe('https://app.example/');
    expect(safeRedirectTarget(url, ORIGINS, '/')).toBe('/');
    expect(safeRedirectTarget(url, ORIGINS)).toBeNull();
  });

  it.each([
    ['/a/../account', '/account'],
    ['/a/./b', '/a/b'],
    ['/my%20page?q=a%20b', '/my%20page?q=a%20b'],
    ['https://app.example/done#x', '/done#x'],
    ['https://partner.example/x', 'https://partner.example/x'],
  ])('keeps %j, written as %j', (url, written) => {
    expect(safeRedirectTarget(url, ORIGINS)).toBe(written);
  });
});

/** Pieces that URL tricks are made of: dots, slashes, backslashes and their percent-escapes, hosts. */
const piece = fc.constantFrom(
  '/',
  '//',
  '\\',
  '.',
  '..',
  '%2e',
  '%2E',
  '%2f',
  '%2F',
  '%5c',
  '%252f',
  '%25',
  '@',
  ':',
  '?',
  '#',
  ';',
  'evil.example',
  'app.example',
  'https:',
  'http:',
  'javascript:',
  'x',
  '%09',
  '%00',
  ' ',
  '\t',
);
const trick = fc
  .tuple(
    fc.constantFrom('', '/', '//', 'https://app.example', 'https://app.example/', 'http://', '/\\', '?', '#'),
    fc.array(piece, { maxLength: 10 }),
  )
  .map(([start, rest]) => start + rest.join(''));

describe('safeRedirect properties (issue 12)', () => {
  it('whatever it returns is on an allowed origin, and its written form is a path that stays there', () => {
    fc.assert(
      fc.property(fc.oneof(trick, fc.string(), fc.webUrl()), (url) => {
        const safe = safeRedirect(url, ORIGINS);
        const written = safeRedirectTarget(url, ORIGINS);
        expect(written === null).toBe(safe === null);
        if (safe === null || written === null) return;
        expect(ORIGINS).toContain(new URL(safe).origin);
        // The written value is itself safe and resolves, from any page of the origin, to the same URL.
        expect(isSafeRedirectUrl(written, ORIGINS)).toBe(true);
        expect(new URL(written, 'https://app.example/deep/page?q=1').href).toBe(safe);
        if (!/^https?:/.test(written)) expect(written).toMatch(/^\/(?![/\\])/);
      }),
      { numRuns: 3000 },
    );
    // 3,000 generated URLs take seconds on a loaded machine: a generous limit, not a timing assertion.
  }, 60_000);

  it('an unsafe value falls back to the default, never to null or an exception', () => {
    fc.assert(
      fc.property(trick, (url) => {
        const written = safeRedirectTarget(url, ORIGINS, '/account');
        expect(written).not.toBeNull();
        if (!isSafeRedirectUrl(url, ORIGINS)) expect(written).toBe('/account');
      }),
      { numRuns: 2000 },
    );
  });
});
