// The email-first flow (createFlow) on the Firebase provider against the Auth emulator, with email
// enumeration protection off and on: existing users are signed in either way.
import {
  createFlow,
  createMemoryStorage,
  type Flow,
  type FlowState,
  normalizeConfig,
} from '@doorway/auth-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearAccounts,
  createAccount,
  freshProvider,
  setEmailEnumerationProtection,
  uniqueEmail,
} from './emulator.ts';

const ORIGIN = 'http://localhost:5173';
let disposers: (() => Promise<void> | void)[] = [];

beforeEach(() => clearAccounts());
afterEach(async () => {
  for (const d of disposers) await d();
  disposers = [];
  await setEmailEnumerationProtection(false);
});

/** Resolves once the flow is on `card` with nothing in flight (or fails after `ms`). */
function settleOn(flow: Flow, card: FlowState['card'], ms = 10_000): Promise<FlowState> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const s = flow.getSnapshot();
      if (s.card === card && s.pending === null) {
        clearTimeout(timer);
        unsubscribe();
        resolve(s);
      }
    };
    const timer = setTimeout(() => {
      unsubscribe();
      const s = flow.getSnapshot();
      reject(new Error(`expected ${card}, still on ${s.card} (error: ${s.error})`));
    }, ms);
    const unsubscribe = flow.subscribe(check);
    check();
  });
}

function start(emailEnumerationProtection: boolean): Flow {
  const { provider, dispose } = freshProvider({ emailEnumerationProtection });
  const flow = createFlow({
    provider,
    config: normalizeConfig({ signInOptions: ['email'] }, ORIGIN),
    url: `${ORIGIN}/login`,
    storage: createMemoryStorage(),
    navigate: () => {},
  });
  disposers.push(() => flow.dispose(), dispose);
  return flow;
}

describe.each([false, true])('email-first sign-in with enumeration protection %s', (protection) => {
  beforeEach(() => setEmailEnumerationProtection(protection));

  it('signs an existing user in with the right password', async () => {
    const email = uniqueEmail('flow');
    await createAccount({ email, password: 'abc123' });
    const flow = start(protection);
    await settleOn(flow, 'emailEntry');
    flow.send({ type: 'SUBMIT_EMAIL', email });
    const card = await settleOn(flow, 'passwordSignIn');
    // Protected: the combined card, which never says whether the account exists.
    expect(card).toMatchObject({ offerSignUp: protection });
    flow.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    const done = await settleOn(flow, 'signedIn');
    expect(done.card === 'signedIn' && done.result?.user.email).toBe(email);
  });

  it('answers a wrong password with the spec message and stays on the card', async () => {
    const email = uniqueEmail('flowwrong');
    await createAccount({ email, password: 'abc123' });
    const flow = start(protection);
    await settleOn(flow, 'emailEntry');
    flow.send({ type: 'SUBMIT_EMAIL', email });
    await settleOn(flow, 'passwordSignIn');
    flow.send({ type: 'SUBMIT_PASSWORD', password: 'wrong-1' });
    await new Promise<void>((resolve) => {
      const unsubscribe = flow.subscribe(() => {
        if (flow.getSnapshot().error !== null) {
          unsubscribe();
          resolve();
        }
      });
    });
    expect(flow.getSnapshot()).toMatchObject({ card: 'passwordSignIn', error: 'wrong-password', email });
  });
});
