/**
 * A code-mode URL on the sign-in page goes to the action route (303, the same query, the action pages'
 * headers) before the form path runs; sign-in links and the rest stay on `/login`.
 * @see issue 24
 */
import { describe, expect, it } from 'vitest';
import { codeModeRedirect } from '../app/form-path.server.ts';

const at = (query: string) => new Request(`http://127.0.0.1:3000/login${query}`);

describe('codeModeRedirect (issue 24)', () => {
  it.each([
    'resetPassword',
    'recoverEmail',
    'verifyEmail',
    'verifyAndChangeEmail',
    'revertSecondFactorAddition',
  ])(
    'mode=%s answers 303 to /action with the same query, no-store, same-origin referrer, noindex',
    (mode) => {
      const query = `?mode=${mode}&oobCode=CODE-123&apiKey=k&continueUrl=%2Faccount&lang=en`;
      const response = codeModeRedirect(at(query));
      expect(response?.status).toBe(303);
      expect(response?.headers.get('location')).toBe(`/action${query}`);
      expect(response?.headers.get('cache-control')).toBe('no-store');
      expect(response?.headers.get('referrer-policy')).toBe('same-origin');
      expect(response?.headers.get('x-robots-tag')).toBe('noindex');
    },
  );

  it('keeps a code mode without a code going to /action too (its failure card is there)', () => {
    expect(codeModeRedirect(at('?mode=verifyEmail'))?.headers.get('location')).toBe(
      '/action?mode=verifyEmail',
    );
  });

  it.each([
    '',
    '?mode=signIn&oobCode=x',
    '?mode=select',
    '?signedOut=1',
    '?mode=deleteAccount&oobCode=x',
    '?mode=',
  ])('leaves %j on /login', (query) => {
    expect(codeModeRedirect(at(query))).toBeNull();
  });
});
