/**
 * The adapter on the GoTrue double as the playground uses it: a plain `fetch` for supabase-js (no msw server
 * in this file), and saved / restored as JSON between "page loads". The double's own checks of `fetch` and
 * snapshots are in packages/gotrue-double/test/double.test.ts.
 */

import { createGoTrueDouble, type GoTrueDouble } from '@doorway/gotrue-double';
import { expectAuthError } from '@doorway/testing';
import { describe, expect, it } from 'vitest';
import { createSupabaseProvider, SUPABASE_EMAIL_TEMPLATES } from '../src/index.ts';

const APP = 'http://localhost/app';

function providerOn(double: GoTrueDouble) {
  return createSupabaseProvider(
    { url: double.projectUrl, anonKey: double.anonKey, auth: { fetch: double.fetch, flowType: 'implicit' } },
    { actionUrl: 'http://localhost/__/auth/action' },
  );
}

function newDouble(state?: ReturnType<GoTrueDouble['snapshot']>): GoTrueDouble {
  return createGoTrueDouble({
    projectUrl: 'http://fetch-double.supabase.test',
    mailerAutoconfirm: true,
    uriAllowList: ['http://localhost/**'],
    templates: SUPABASE_EMAIL_TEMPLATES,
    ...(state ? { state } : {}),
  });
}

describe('the adapter on the GoTrue double as fetch, saved and restored', () => {
  it('answers supabase-js through double.fetch, without msw', async () => {
    const double = newDouble();
    const provider = providerOn(double);
    const result = await provider.createUser('fetch@example.com', 'Secret-123', 'Fetch Person');
    expect(result.user.email).toBe('fetch@example.com');
    expect(double.requests.some((r) => r.method === 'POST' && r.path === '/signup')).toBe(true);
    provider.dispose();
  });

  it('a double restored from a snapshot keeps accounts, passwords and unused link tokens', async () => {
    const first = newDouble();
    const before = providerOn(first);
    await before.createUser('saved@example.com', 'Secret-123');
    await before.signOut();
    await before.sendSignInLinkToEmail('saved@example.com', { url: APP, handleCodeInApp: true });
    const link = first.outbox.lastEmail('saved@example.com', 'magiclink')?.link ?? '';
    expect(link).toContain('oobCode=magiclink-');
    before.dispose();

    const saved = JSON.parse(JSON.stringify(first.snapshot())) as ReturnType<GoTrueDouble['snapshot']>;
    const second = newDouble(saved);
    expect(second.clock.now()).toBeGreaterThanOrEqual(first.clock.now());
    expect(second.outbox.emails).toHaveLength(first.outbox.emails.length);

    const after = providerOn(second);
    await expectAuthError(
      after.signInWithEmailAndPassword('saved@example.com', 'wrong-123'),
      'wrong-password',
    );
    const signedIn = await after.signInWithEmailLink('saved@example.com', link);
    expect(signedIn.user.email).toBe('saved@example.com');
    await after.signOut();
    const again = await after.signInWithEmailAndPassword('saved@example.com', 'Secret-123');
    expect(again.user.email).toBe('saved@example.com');
    after.dispose();
  });
});
