/**
 * `runFlow` with an engine that arrives later, as `<SignInWidget>` runs it (the engine is in the chunk it
 * loads after the first card): the first card shows at once, what happens before the engine arrives waits
 * for it, in order, and an engine that fails to load ends on the unrecoverable error card.
 */
import {
  createMemoryStorage,
  type FlowEngine,
  flowEngine,
  normalizeConfig,
  runFlow,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { createFakeProvider } from '../src/index.ts';
import { LOGIN, ORIGIN } from './harness.ts';

const ANN = { email: 'ann@example.com', password: 'abc123', displayName: 'Ann' };
const EMAIL_FIRST: WidgetConfigInput = { signInOptions: ['email'], displayMode: 'identifierFirst' };

/** An engine promise the test settles by hand. */
function deferredEngine() {
  let resolve: (engine: FlowEngine) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<FlowEngine>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setTimeout(r, 0));
};

function start(input: WidgetConfigInput, engine: PromiseLike<FlowEngine>, url = LOGIN) {
  const fake = createFakeProvider({ users: [ANN] });
  const flow = runFlow(
    { provider: fake, config: normalizeConfig(input, ORIGIN), url, storage: createMemoryStorage() },
    engine,
  );
  return { fake, flow };
}

describe('runFlow with an engine still loading', () => {
  it('shows the first card before the engine arrives, without calling the provider', () => {
    const engine = deferredEngine();
    const { fake, flow } = start({ signInOptions: ['email', 'google.com'] }, engine.promise);
    expect(flow.getSnapshot().card).toBe('providerChooser');
    expect(fake.backend.calls).toEqual([]);
  });

  it('holds events sent meanwhile and applies them in order once it arrives', async () => {
    const engine = deferredEngine();
    const { fake, flow } = start(EMAIL_FIRST, engine.promise);
    const seen: string[] = [];
    flow.subscribe(() => seen.push(flow.getSnapshot().card));
    expect(flow.getSnapshot().card).toBe('emailEntry');
    flow.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    flow.send({ type: 'SUBMIT_PASSWORD', password: ANN.password }); // queued behind it, on the next card
    await settle();
    expect(flow.getSnapshot()).toMatchObject({ card: 'emailEntry', pending: null });
    expect(fake.backend.calls).toEqual([]);

    engine.resolve(flowEngine);
    await settle();
    // The email was looked up; the password sent too early (on the email card) was not used.
    expect(flow.getSnapshot().card).toBe('passwordSignIn');
    expect(fake.backend.calls.map((c) => c.method)).toEqual(['fetchSignInMethodsForEmail']);
    expect(seen[0]).toBe('emailEntry');
  });

  it('starts a call the first card asked for once the engine arrives (an action link)', async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: 'ann@example.com' });
    const link = fake.backend.sendVerificationEmail(uid, { url: `${ORIGIN}/action` }).link;
    const engine = deferredEngine();
    const flow = runFlow(
      {
        provider: fake,
        config: normalizeConfig({ signInOptions: ['email'] }, ORIGIN),
        url: link,
        storage: createMemoryStorage(),
      },
      engine.promise,
    );
    expect(flow.getSnapshot()).toMatchObject({ card: 'spinner' });
    expect(flow.getSnapshot().pending).not.toBeNull();
    await settle();
    expect(fake.backend.calls).toEqual([]);
    engine.resolve(flowEngine);
    await settle();
    expect(flow.getSnapshot().card).toBe('emailVerificationSuccess');
  });

  it('ends on the unrecoverable error card, with nothing else applied, when the engine fails to load', async () => {
    const engine = deferredEngine();
    const { fake, flow } = start(EMAIL_FIRST, engine.promise);
    flow.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    engine.reject(new Error('chunk failed to load'));
    await settle();
    expect(flow.getSnapshot()).toMatchObject({
      card: 'unrecoverableError',
      message: 'network-request-failed',
      pending: null,
      busy: false,
    });
    expect(fake.backend.calls).toEqual([]);
  });

  it('ignores an engine that arrives after dispose', async () => {
    const engine = deferredEngine();
    const { fake, flow } = start(EMAIL_FIRST, engine.promise);
    flow.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    flow.dispose();
    engine.resolve(flowEngine);
    await settle();
    expect(flow.getSnapshot().card).toBe('emailEntry');
    expect(fake.backend.calls).toEqual([]);
  });
});
