/**
 * The adapter on the GoTrue TEST DOUBLE over real HTTP on 127.0.0.1 (what `npm run start:supabase` and the
 * host's e2e run on): supabase-js and the server entry through the global `fetch`. The double's own HTTP
 * answers (CORS, its outbox route, real time) are checked in packages/gotrue-double/test/http.test.ts.
 */

import { type ServedGoTrueDouble, serveGoTrueDouble } from '@doorway/gotrue-double/http';
import { expectAuthError } from '@doorway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSupabaseProvider } from '../src/index.ts';
import { createSupabaseServer } from '../src/server.ts';

let served: ServedGoTrueDouble;

beforeAll(async () => {
  served = await serveGoTrueDouble({ mailerAutoconfirm: true, siteUrl: 'http://127.0.0.1:3000' });
});
afterAll(() => served.close());

describe('the adapter on serveGoTrueDouble', () => {
  it('serves supabase-js and the server entry over HTTP on the loopback address', async () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const provider = createSupabaseProvider({ url: served.url, anonKey: served.double.anonKey });
    const created = await provider.createUser('http@example.com', 'Secret-123', 'Over Http');
    expect(created.user.displayName).toBe('Over Http');
    // The versioned error body is read: a wrong password is wrong-password, not generic.
    await expectAuthError(
      provider.signInWithEmailAndPassword('http@example.com', 'nope-nope'),
      'wrong-password',
    );
    const signedIn = await provider.signInWithEmailAndPassword('http@example.com', 'Secret-123');
    expect(signedIn.user.email).toBe('http@example.com');
    const { data } = await provider.client.auth.getSession();
    const server = createSupabaseServer({ url: served.url, anonKey: served.double.anonKey });
    const cookie = await server.createSessionCookie(data.session?.access_token ?? '');
    expect((await server.verifySession(cookie))?.session.email).toBe('http@example.com');
    await server.revokeSession(cookie);
    expect(await server.verifySession(cookie)).toBeNull();
    provider.dispose();
  });

  it('a network fault of the double fails the request (supabase-js: network-request-failed)', async () => {
    const provider = createSupabaseProvider({ url: served.url, anonKey: served.double.anonKey });
    served.double.faults.network = true;
    try {
      await expectAuthError(
        provider.signInWithEmailAndPassword('http@example.com', 'Secret-123'),
        'network-request-failed',
      );
    } finally {
      served.double.faults.network = false;
      provider.dispose();
    }
  });
});
