/**
 * The admin routes over HTTP (admin.go): `DELETE /admin/users/{user_id}` behind requireAdmin, with the
 * service-role key as supabase-js's admin client sends it; and `PUT /user`'s metadata merge
 * (User.UpdateUserMetaData), which the account page's display name relies on.
 */
import { describe, expect, it } from 'vitest';
import { createGoTrueDouble, type GoTrueDouble } from '../src/index.ts';
import { call, type Json, PASSWORD, signIn } from './calls.ts';

/** A request with the service-role key as `apikey` and bearer, as `supabase.auth.admin` sends it. */
async function asAdmin(
  double: GoTrueDouble,
  method: string,
  path: string,
  body?: unknown,
  bearer = double.serviceRoleKey,
): Promise<{ status: number; body: Json }> {
  const response = await double.fetch(`${double.authUrl}${path}`, {
    method,
    headers: {
      apikey: double.serviceRoleKey,
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Json };
}

const idOf = (double: GoTrueDouble, email: string) =>
  String(double.admin.listUsers().find((u) => u.email === email)?.id);

describe('DELETE /admin/users/{user_id}', () => {
  it('deletes the user and ends its sessions and refresh tokens', async () => {
    const double = createGoTrueDouble();
    const token = await signIn(double, 'gone@example.com');
    const other = await signIn(double, 'stays@example.com');
    const id = idOf(double, 'gone@example.com');
    const answer = await asAdmin(double, 'DELETE', `/admin/users/${id}`, { should_soft_delete: false });
    expect(answer).toEqual({ status: 200, body: {} });
    expect(double.admin.listUsers().map((u) => u.email)).toEqual(['stays@example.com']);
    expect(double.snapshot().sessions).toHaveLength(1);
    expect(double.snapshot().refreshTokens).toHaveLength(1);
    expect((await call(double, 'GET', '/user', token)).status).toBe(403);
    expect((await call(double, 'GET', '/user', other)).status).toBe(200);
    const signIn2 = await call(double, 'POST', '/token?grant_type=password', null, {
      email: 'gone@example.com',
      password: PASSWORD,
    });
    expect(signIn2).toMatchObject({ status: 400, body: { code: 'invalid_credentials' } });
  });

  it('takes a request without a body (a hard delete)', async () => {
    const double = createGoTrueDouble();
    await signIn(double, 'nobody@example.com');
    const id = idOf(double, 'nobody@example.com');
    expect((await asAdmin(double, 'DELETE', `/admin/users/${id}`)).status).toBe(200);
    expect(double.admin.listUsers()).toEqual([]);
  });

  it('refuses a user access token and the anon key (not_admin), and no bearer (no_authorization)', async () => {
    const double = createGoTrueDouble();
    const token = await signIn(double, 'self@example.com');
    const id = idOf(double, 'self@example.com');
    const path = `/admin/users/${id}`;
    await expect(call(double, 'DELETE', path, token)).resolves.toMatchObject({
      status: 403,
      body: { code: 'not_admin', message: 'User not allowed' },
    });
    await expect(call(double, 'DELETE', path, null)).resolves.toMatchObject({
      status: 403,
      body: { code: 'not_admin' },
    });
    await expect(asAdmin(double, 'DELETE', path, undefined, 'not-a-jwt')).resolves.toMatchObject({
      status: 403,
      body: { code: 'bad_jwt' },
    });
    const response = await double.fetch(`${double.authUrl}${path}`, {
      method: 'DELETE',
      headers: { apikey: double.serviceRoleKey, 'x-supabase-api-version': '2024-01-01' },
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as Json).code).toBe('no_authorization');
    expect(double.admin.listUsers()).toHaveLength(1);
  });

  it('answers 404 user_not_found for an unknown id and 400 for an id that is not a UUID', async () => {
    const double = createGoTrueDouble();
    await expect(
      asAdmin(double, 'DELETE', '/admin/users/00000000-0000-4000-8000-000000000000'),
    ).resolves.toMatchObject({ status: 404, body: { code: 'user_not_found' } });
    await expect(asAdmin(double, 'DELETE', '/admin/users/not-a-uuid')).resolves.toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
  });

  it('refuses a soft delete, which the double does not imitate, and keeps the user', async () => {
    const double = createGoTrueDouble();
    await signIn(double, 'soft@example.com');
    const id = idOf(double, 'soft@example.com');
    const answer = await asAdmin(double, 'DELETE', `/admin/users/${id}`, { should_soft_delete: true });
    expect(answer.status).toBe(400);
    expect(double.admin.listUsers()).toHaveLength(1);
  });
});

describe('the service-role key', () => {
  it('is accepted as apikey on the user routes, like the anon key', async () => {
    const double = createGoTrueDouble();
    const token = await signIn(double, 'key@example.com');
    const answer = await asAdmin(double, 'GET', '/user', undefined, token);
    expect(answer).toMatchObject({ status: 200, body: { email: 'key@example.com' } });
    expect(double.serviceRoleKey).not.toBe(double.anonKey);
  });
});

describe('PUT /user data', () => {
  it('merges user_metadata and removes the keys set to null', async () => {
    const double = createGoTrueDouble();
    const token = await signIn(double, 'meta@example.com');
    await call(double, 'PUT', '/user', token, { data: { full_name: 'Ada', theme: 'dark' } });
    const { body } = await call(double, 'PUT', '/user', token, { data: { full_name: null, name: null } });
    expect(body.user_metadata).toEqual({ theme: 'dark' });
  });
});
