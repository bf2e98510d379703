import { describe, expect, it } from 'vitest';
import { browserSignIn } from '../app/browser-sign-in.server.ts';
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
