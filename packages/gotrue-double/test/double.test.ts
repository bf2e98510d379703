/**
 * The GoTrue double as the playground uses it: a plain `fetch` (no msw server in this file), and saved /
 * restored as JSON between "page loads". The adapter on it is checked in
 * packages/adapter-supabase/test/double-fetch.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createGoTrueDouble, type GoTrueDouble, type GoTrueDoubleState } from '../src/index.ts';

function newDouble(state?: GoTrueDoubleState): GoTrueDouble {
  return createGoTrueDouble({
    projectUrl: 'http://fetch-double.supabase.test',
    uriAllowList: ['http://localhost/**'],
    ...(state ? { state } : {}),
  });
}

/** A request to the double's auth API through `double.fetch`, as supabase-js sends it. */
function call(double: GoTrueDouble, method: string, path: string, body?: unknown): Promise<Response> {
  return double.fetch(`${double.authUrl}${path}`, {
    method,
    headers: {
      apikey: double.anonKey,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('GoTrue double as fetch, saved and restored', () => {
  it('answers its routes through double.fetch, without msw, and logs them', async () => {
    const double = newDouble();
    const response = await call(double, 'POST', '/signup', {
      email: 'Fetch@Example.com',
      password: 'Secret-123',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { email: string }).email).toBe('fetch@example.com');
    expect(double.outbox.lastEmail('fetch@example.com', 'signup')?.link).toContain(
      `${double.authUrl}/verify?`,
    );
    expect(double.requests.some((r) => r.method === 'POST' && r.path === '/signup')).toBe(true);
  });

  it('rejects like fetch on a network fault and for URLs it does not serve', async () => {
    const double = newDouble();
    double.faults.network = true;
    await expect(double.fetch(`${double.authUrl}/settings`)).rejects.toThrow(TypeError);
    await expect(double.fetch('http://elsewhere.test/')).rejects.toThrow(TypeError);
  });

  it('a double restored from a snapshot keeps accounts, passwords, unused link tokens and its clock', async () => {
    const first = newDouble();
    first.admin.createUser({ email: 'saved@example.com', password: 'Secret-123', email_confirm: true });
    await call(first, 'POST', '/otp?redirect_to=http%3A%2F%2Flocalhost%2Fapp', {
      email: 'saved@example.com',
    });
    const link = first.outbox.lastEmail('saved@example.com', 'magiclink')?.link ?? '';
    expect(link).toContain('type=magiclink');

    const saved = JSON.parse(JSON.stringify(first.snapshot())) as GoTrueDoubleState;
    const second = newDouble(saved);
    expect(second.clock.now()).toBeGreaterThanOrEqual(first.clock.now());
    expect(second.outbox.emails).toHaveLength(first.outbox.emails.length);

    const wrong = await call(second, 'POST', '/token?grant_type=password', {
      email: 'saved@example.com',
      password: 'wrong-123',
    });
    expect(((await wrong.json()) as { code: string }).code).toBe('invalid_credentials');
    const landed = new URL(second.follow(link));
    expect(landed.origin + landed.pathname).toBe('http://localhost/app');
    expect(new URLSearchParams(landed.hash.slice(1)).get('type')).toBe('magiclink');
    const again = await call(second, 'POST', '/token?grant_type=password', {
      email: 'saved@example.com',
      password: 'Secret-123',
    });
    expect(again.status).toBe(200);
  });
});
