/**
 * DELETE /user/identities/{identity_id} as identity.go answers it: manual linking on, the identity one of the
 * signed-in user's, never the last one.
 */
import { describe, expect, it } from 'vitest';
import { createGoTrueDouble, type GoTrueDouble } from '../src/index.ts';
import { call, type Json, signIn } from './calls.ts';

function newDouble(manualLinking = true): GoTrueDouble {
  return createGoTrueDouble({ projectUrl: 'http://identities-double.supabase.test', manualLinking });
}

/** The signed-in user's identities, as GET /user answers them. */
async function identities(double: GoTrueDouble, token: string): Promise<Json[]> {
  const { body } = await call(double, 'GET', '/user', token);
  return body.identities as Json[];
}

describe('DELETE /user/identities/{identity_id}', () => {
  it('refuses the only identity: 422 single_identity_not_deletable, and keeps it', async () => {
    const double = newDouble();
    const token = await signIn(double, 'single@example.com');
    const [only] = await identities(double, token);
    const answer = await call(double, 'DELETE', `/user/identities/${String(only?.identity_id)}`, token);
    expect(answer).toMatchObject({ status: 422, body: { code: 'single_identity_not_deletable' } });
    expect(await identities(double, token)).toHaveLength(1);
  });

  it('unlinks a linked identity, updating app_metadata.providers; the address stays', async () => {
    const double = newDouble();
    const token = await signIn(double, 'two@example.com');
    const id = String(double.admin.listUsers().find((u) => u.email === 'two@example.com')?.id);
    double.admin.addIdentity(id, 'google', { sub: 'g-two', email: 'two@example.com' });
    const google = (await identities(double, token)).find((i) => i.provider === 'google');
    const answer = await call(double, 'DELETE', `/user/identities/${String(google?.identity_id)}`, token);
    expect(answer).toEqual({ status: 200, body: {} });
    const { body } = await call(double, 'GET', '/user', token);
    expect(body).toMatchObject({ email: 'two@example.com', app_metadata: { providers: ['email'] } });
    expect((body.identities as Json[]).map((i) => i.provider)).toEqual(['email']);
  });

  it("answers 422 identity_not_found for an identity that is not the user's, and 404 for a malformed id", async () => {
    const double = newDouble();
    const token = await signIn(double, 'three@example.com');
    const id = String(double.admin.listUsers().find((u) => u.email === 'three@example.com')?.id);
    double.admin.addIdentity(id, 'google', { sub: 'g-three', email: 'three@example.com' });
    const other = '00000000-0000-4000-8000-000000000000';
    expect(await call(double, 'DELETE', `/user/identities/${other}`, token)).toMatchObject({
      status: 422,
      body: { code: 'identity_not_found' },
    });
    expect((await call(double, 'DELETE', '/user/identities/not-a-uuid', token)).status).toBe(404);
  });

  it('is behind manual linking: 404 manual_linking_disabled', async () => {
    const double = newDouble(false);
    const token = await signIn(double, 'off@example.com');
    const [only] = await identities(double, token);
    expect(
      await call(double, 'DELETE', `/user/identities/${String(only?.identity_id)}`, token),
    ).toMatchObject({ status: 404, body: { code: 'manual_linking_disabled' } });
  });
});
