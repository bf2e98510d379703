import { describe, expect, it } from 'vitest';
import { actionResultResponse } from '../app/static-page.server.tsx';
import { request } from './fakes.ts';

const post = (query: string) => request(`/action/submit?${query}`, { method: 'POST' });

describe('actionResultResponse (answers of the action cards’ form posts)', () => {
  it('should render the card as a whole page without scripts, with the security and action headers', async () => {
    const response = actionResultResponse(
      { status: 200, view: { card: 'passwordReset', email: 'ada@example.com', error: 'password-weak' } },
      post('mode=resetPassword&oobCode=abc'),
    );
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'x-frame-options': 'DENY',
      'content-security-policy':
        "script-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
      'cache-control': 'no-store',
      'referrer-policy': 'same-origin',
    });
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en">/);
    // The page's CSS is inlined (no stylesheet request before the first paint). (Under vitest `?inline` CSS
    // is empty; the build fills it in.)
    expect(html).not.toContain('<link rel="stylesheet"');
    expect(html).toContain('<style>');
    expect(html).toContain('data-card="passwordReset"');
    expect(html).toContain('action="/action/submit?mode=resetPassword&amp;oobCode=abc"');
    expect(html).not.toContain('<script');
  });

  it('should keep the status of the view (503 for a recoverable error)', () => {
    const response = actionResultResponse(
      { status: 503, view: { card: 'recoverableError', message: 'network-request-failed' } },
      post('mode=verifyEmail&oobCode=abc'),
    );
    expect(response.status).toBe(503);
  });

  it('should send a result that needs the widget back to the action page (same origin) with 303', () => {
    const response = actionResultResponse(
      { status: 200, view: { card: 'widget' } },
      post('mode=signIn&oobCode=abc'),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/action?mode=signIn&oobCode=abc');
  });
});
