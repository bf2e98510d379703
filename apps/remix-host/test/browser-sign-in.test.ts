import { messageFor } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { browserSignIn, FRESH_SIGN_IN_SECONDS } from '../app/browser-sign-in.server.ts';
import { type Audit, type SessionBackend, SIGN_IN_TIME_CLAIM } from '../app/session.server.ts';
import { ADA, fakeSessions, ORIGIN, request } from './fakes.ts';

const PATH = '/account/browser-sign-in';
const mint = async (uid: string) => `token-for-${uid}`;
const post = (origin: string | null, cookie: string | null = 'doorway_session=cookie-ada') =>
  request(PATH, { method: 'POST', origin, headers: cookie === null ? {} : { cookie } });

describe('POST /account/browser-sign-in', () => {
  it('should answer a token for the session’s uid, no-store', async () => {
    const response = await browserSignIn(post(ORIGIN), fakeSessions(), [], mint);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ token: `token-for-${ADA.uid}`, uid: ADA.uid });
  });

  it('should refuse another origin (403) before reading the session', async () => {
    const response = await browserSignIn(post('https://evil.example'), fakeSessions(), [], mint);
    expect(response.status).toBe(403);
  });

  it('should answer 401 without a session, or a revoked one', async () => {
    expect((await browserSignIn(post(ORIGIN, null), fakeSessions(), [], mint)).status).toBe(401);
    const sessions = fakeSessions();
    sessions.revoked.push(ADA.uid);
    expect((await browserSignIn(post(ORIGIN), sessions, [], mint)).status).toBe(401);
  });

  it('should answer 405 for GET, 404 without a token minter, 503 when minting fails', async () => {
    const get = request(PATH, { origin: ORIGIN, headers: { cookie: 'doorway_session=cookie-ada' } });
    expect((await browserSignIn(get, fakeSessions(), [], mint)).status).toBe(405);
    expect((await browserSignIn(post(ORIGIN), fakeSessions(), [], null)).status).toBe(404);
    const failing = async () => Promise.reject(new Error('down'));
    const response = await browserSignIn(post(ORIGIN), fakeSessions(), [], failing);
    expect(response.status).toBe(503);
    expect(await response.text()).not.toContain('down');
  });
});

describe('POST /account/browser-sign-in only for a fresh sign-in (issue 24)', () => {
  const old = Date.now() - (FRESH_SIGN_IN_SECONDS * 1000 + 60_000);

  function recording() {
    const minted: { uid: string; claims: Record<string, number> }[] = [];
    const lines: string[] = [];
    const audit: Audit = { clientAddress: '192.0.2.44', now: () => Date.now(), write: (l) => lines.push(l) };
    const mintToken = async (uid: string, claims: Record<string, number>) => {
      minted.push({ uid, claims });
      return 'custom-token-secret';
    };
    return { minted, lines, audit, mintToken };
  }

  it('an old session cannot obtain a custom token: 401 requires-recent-login, nothing minted', async () => {
    const { minted, lines, audit, mintToken } = recording();
    const response = await browserSignIn(post(ORIGIN), fakeSessions({ authTime: old }), [], mintToken, audit);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      code: 'requires-recent-login',
      error: messageFor('requires-recent-login'),
    });
    expect(minted).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('a session made from a browser sign-in counts from the sign-in its token carried, not from its own', async () => {
    const { minted, audit, mintToken } = recording();
    const carried = (seconds: number) =>
      `e30.${Buffer.from(JSON.stringify({ [SIGN_IN_TIME_CLAIM]: seconds })).toString('base64url')}.sig`;
    const base = fakeSessions();
    const sessions = (cookie: string): SessionBackend => ({
      ...base,
      verifySessionCookie: (value, options) =>
        base.verifySessionCookie(value === cookie ? 'cookie-ada' : value, options),
    });
    const stale = carried(Math.floor(old / 1000));
    const chained = post(ORIGIN, `doorway_session=${stale}`);
    expect((await browserSignIn(chained, sessions(stale), [], mintToken, audit)).status).toBe(401);
    expect(minted).toEqual([]);
  });

  it('a fresh session gets a token carrying its sign-in time, and one audit line without the token', async () => {
    const { minted, lines, audit, mintToken } = recording();
    const signedInAt = Date.now() - 60_000;
    const response = await browserSignIn(
      post(ORIGIN),
      fakeSessions({ authTime: signedInAt }),
      [],
      mintToken,
      audit,
    );
    expect(response.status).toBe(200);
    expect(minted).toEqual([
      { uid: ADA.uid, claims: { [SIGN_IN_TIME_CLAIM]: Math.floor(signedInAt / 1000) } },
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[doorway audit\] browser-sign-in minted uid="uid-ada" address="192\.0\.2\.44" at=\S+Z$/,
    );
    expect(lines[0]).not.toContain('custom-token-secret');
    expect(lines[0]).not.toContain('cookie-ada');
  });
});
