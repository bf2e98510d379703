/**
 * The GoTrue TEST DOUBLE over real HTTP on 127.0.0.1 (what `npm run start:supabase` and the host's e2e run
 * on): its double-only outbox route, the CORS answers a browser needs, and real time. The adapter on it is
 * checked in packages/adapter-supabase/test/over-http.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_PATH, type ServedGoTrueDouble, serveGoTrueDouble } from '../src/http.ts';

let served: ServedGoTrueDouble;

beforeAll(async () => {
  served = await serveGoTrueDouble({ mailerAutoconfirm: true, siteUrl: 'http://127.0.0.1:3000' });
  served.double.admin.createUser({ email: 'http@example.com', password: 'Secret-123', email_confirm: true });
});
afterAll(() => served.close());

/** A POST to the auth API with the anon key, as supabase-js sends it. */
function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${served.url}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: served.double.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('serveGoTrueDouble', () => {
  it('counts the rate limits by the peer address, which a client cannot set by a header', async () => {
    const own = await serveGoTrueDouble({ anonymousUsers: true });
    try {
      const anonymous = (i: number) =>
        fetch(`${own.url}/auth/v1/signup`, {
          method: 'POST',
          headers: {
            apikey: own.double.anonKey,
            'content-type': 'application/json',
            'x-gotrue-double-peer': `203.0.113.${i}`,
          },
          body: '{}',
        });
      // Anonymous sign-ups: a burst of 30 per client, then one every 2 minutes.
      for (let i = 0; i < 30; i++) expect((await anonymous(i)).status).toBe(200);
      const limited = await anonymous(99);
      expect(limited.status).toBe(429);
      expect(((await limited.json()) as { error_code: string }).error_code).toBe('over_request_rate_limit');
    } finally {
      await own.close();
    }
  });

  it('serves the auth API on the loopback address', async () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await post('/token?grant_type=password', {
      email: 'http@example.com',
      password: 'Secret-123',
    });
    expect(response.status).toBe(200);
    const { user } = (await response.json()) as { user: { email: string } };
    expect(user.email).toBe('http@example.com');
  });

  it('GET /__double/outbox lists the emails the double sent (a double-only route)', async () => {
    const redirect = encodeURIComponent('http://127.0.0.1:3000/action');
    expect((await post(`/recover?redirect_to=${redirect}`, { email: 'http@example.com' })).status).toBe(200);
    const response = await fetch(`${served.url}${OUTBOX_PATH}`);
    const { emails } = (await response.json()) as { emails: { to: string; type: string; link: string }[] };
    const reset = emails.filter((e) => e.to === 'http@example.com' && e.type === 'recovery');
    expect(reset).toHaveLength(1);
    expect(reset[0]?.link).toContain('/auth/v1/verify?token=');
  });

  it('answers CORS as GoTrue does: preflight, reflected origin, exposed API-version header', async () => {
    const preflight = await fetch(`${served.url}/auth/v1/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey, authorization, content-type, x-supabase-api-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('apikey');
    // PATCH for renaming a passkey (PATCH /passkeys/{id}), as GoTrue's CORS allows it.
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE');
    const health = await fetch(`${served.url}/auth/v1/health`, {
      headers: { origin: 'http://127.0.0.1:3000', apikey: served.double.anonKey },
    });
    expect(health.status).toBe(200);
    expect(health.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
    const noKey = await fetch(`${served.url}/auth/v1/health`);
    expect(noKey.status).toBe(401);
  });

  it('a network fault of the double fails the connection (502, no GoTrue answer)', async () => {
    served.double.faults.network = true;
    try {
      const response = await post('/token?grant_type=password', {
        email: 'http@example.com',
        password: 'Secret-123',
      });
      expect(response.status).toBe(502);
    } finally {
      served.double.faults.network = false;
    }
  });

  it('keeps real time: a token minted after many requests expires an hour from now, not later', async () => {
    for (let i = 0; i < 40; i++)
      await fetch(`${served.url}/auth/v1/health`, { headers: { apikey: served.double.anonKey } });
    const response = await post('/token?grant_type=password', {
      email: 'http@example.com',
      password: 'Secret-123',
    });
    const { access_token: token, expires_at: expiresAt } = (await response.json()) as {
      access_token: string;
      expires_at: number;
    };
    const payload = token.split('.')[1] ?? '';
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp: number };
    const nowSeconds = Date.now() / 1000;
    expect(exp).toBeGreaterThan(nowSeconds + 3590);
    expect(exp).toBeLessThanOrEqual(nowSeconds + 3601);
    expect(expiresAt).toBe(exp);
    // Moving the clock on still works (code expiry in tests), and real time carries on from there.
    served.double.clock.advance(60_000);
    expect(served.double.clock.now()).toBeGreaterThanOrEqual(Date.now() + 59_000);
  });
});
