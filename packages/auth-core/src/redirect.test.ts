import { describe, expect, it } from 'vitest';
import { isSafeRedirectUrl, safeRedirect } from './redirect.ts';

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
