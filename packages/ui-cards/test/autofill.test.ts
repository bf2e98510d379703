// The email card's passkey autofill as the flow hears it: the result, or the rejection's code (and the
// challenge of a second factor still to ask), never anything once the card has gone.
import { AuthError, type AuthProvider, type SecondFactorChallenge } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { autofill } from '../src/autofill.ts';
import type { UiEvent } from '../src/context.ts';

const CHALLENGE: SecondFactorChallenge = {
  factors: [{ uid: 'f1', kind: 'totp', displayName: 'Phone app', phoneNumber: null, enrolledAt: 1 }],
  session: 'pending',
};

function withSignIn(signIn: () => Promise<unknown>): AuthProvider {
  return { passkeys: { signIn } } as unknown as AuthProvider;
}

async function heard(provider: AuthProvider, signal = new AbortController().signal): Promise<UiEvent[]> {
  const events: UiEvent[] = [];
  await autofill(provider, (event) => events.push(event), signal);
  return events;
}

describe('passkey autofill', () => {
  it('passes on the code of a rejection, and the challenge of second-factor-required', async () => {
    expect(await heard(withSignIn(() => Promise.reject(new AuthError('passkey-not-found'))))).toEqual([
      { type: 'PASSKEY_AUTOFILL_FAILED', error: { code: 'passkey-not-found' } },
    ]);
    const required = new AuthError('second-factor-required', { challenge: CHALLENGE });
    expect(await heard(withSignIn(() => Promise.reject(required)))).toEqual([
      { type: 'PASSKEY_AUTOFILL_FAILED', error: { code: 'second-factor-required', challenge: CHALLENGE } },
    ]);
    expect(await heard(withSignIn(() => Promise.reject(new Error('boom'))))).toEqual([
      { type: 'PASSKEY_AUTOFILL_FAILED', error: { code: 'generic' } },
    ]);
  });

  it('says nothing once the card has gone', async () => {
    const gone = new AbortController();
    gone.abort();
    const required = new AuthError('second-factor-required', { challenge: CHALLENGE });
    expect(
      await heard(
        withSignIn(() => Promise.reject(required)),
        gone.signal,
      ),
    ).toEqual([]);
  });
});
