/**
 * Requests to a GoTrue double as supabase-js sends them (through `double.fetch`), for the route tests:
 * one call with its status and JSON body, an access token's claims, and a password sign-in.
 */
import type { GoTrueDouble } from '../src/index.ts';

export const PASSWORD = 'Secret-123';

export type Json = Record<string, unknown>;

/** One request as supabase-js sends it; resolves the status and JSON body. */
export async function call(
  double: GoTrueDouble,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await double.fetch(`${double.authUrl}${path}`, {
    method,
    headers: {
      apikey: double.anonKey,
      authorization: `Bearer ${token ?? double.anonKey}`,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Json };
}

/** The claims of an access token. */
export function claims(token: unknown): Json {
  const body = String(token).split('.')[1] ?? '';
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Json;
}

/** A confirmed password account (made when missing) signed in: its access token. */
export async function signIn(double: GoTrueDouble, email: string): Promise<string> {
  if (!double.admin.listUsers().some((u) => u.email === email)) {
    double.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  }
  const { body } = await call(double, 'POST', '/token?grant_type=password', null, {
    email,
    password: PASSWORD,
  });
  return String(body.access_token);
}
