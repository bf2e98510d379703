import { describe, expectTypeOf, it } from 'vitest';
import type { AuthError } from '../src/errors.ts';
import type { FlowEvent } from '../src/events.ts';
import type { ErrorCode } from '../src/messages.ts';
import type { AuthCredential } from '../src/provider.ts';
import { type CardName, type FlowState, isCard, type StateOf } from '../src/states.ts';

describe('public types', () => {
  it('isCard narrows a snapshot to its card fields', () => {
    const s = {} as FlowState;
    if (isCard(s, 'phoneCode')) {
      expectTypeOf(s.resendIn).toEqualTypeOf<number>();
      expectTypeOf(s.verificationId).toEqualTypeOf<string>();
    }
    if (isCard(s, 'passwordLinking')) expectTypeOf(s.pendingCredential).toEqualTypeOf<AuthCredential>();
    expectTypeOf<StateOf<'signedIn'>['message']>().toEqualTypeOf<'signedIn' | 'verified'>();
  });

  it('events carry exactly their payloads', () => {
    expectTypeOf<Extract<FlowEvent, { type: 'SUBMIT_EMAIL' }>>().toEqualTypeOf<{
      type: 'SUBMIT_EMAIL';
      email: string;
    }>();
    expectTypeOf<{ type: 'SUBMIT_EMAIL' }>().not.toMatchTypeOf<FlowEvent>();
    expectTypeOf<{ type: 'NOT_AN_EVENT' }>().not.toMatchTypeOf<FlowEvent>();
  });

  it('cards and error codes are closed unions', () => {
    expectTypeOf<'providerChooser'>().toMatchTypeOf<CardName>();
    expectTypeOf<'noSuchCard'>().not.toMatchTypeOf<CardName>();
    expectTypeOf<AuthError['code']>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<'auth/wrong-password'>().not.toMatchTypeOf<ErrorCode>();
  });
});
