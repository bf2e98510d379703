/**
 * `runFlow` with `initialState` (the state a server rendered), on the fake provider: no `START` (a server
 * did it), except when a federated redirect's result waits in the browser's storage; a lazy provider loads
 * once, in the background; only an event whose transition reads its capabilities, or a provider call,
 * waits for it, in order; and if it cannot load, such a step says so.
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import {
  type AuthProvider,
  createMemoryStorage,
  type FlowState,
  flowEngine,
  type LazyProvider,
  normalizeConfig,
  runFlow,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from './harness.tsx';
import { cardState, STATES_CONFIG, STATES_ORIGIN, STATES_URL } from './states.ts';

const ANN = { email: 'ann@example.com', password: 'abc123', displayName: 'Ann' };

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setTimeout(r, 0));
};

/** A lazy provider that loads when the test says so; counts its script loads. */
function lazyProvider(provider: AuthProvider) {
  let ready = false;
  const loads = { count: 0 };
  const lazy: LazyProvider = {
    loadScript: async () => {
      loads.count += 1;
    },
    getProvider: () => (ready ? provider : null),
  };
  return {
    lazy,
    loads,
    async arrive(clock: TestClock) {
      ready = true;
      clock.advance(100); // the next poll for the library
      await settle();
    },
  };
}

function start(
  initialState: FlowState,
  options: {
    provider?: AuthProvider | LazyProvider;
    clock?: TestClock;
    url?: string;
    storage?: ReturnType<typeof createMemoryStorage>;
    config?: WidgetConfigInput;
    uiShown?: () => void;
  } = {},
) {
  const fake = createFakeProvider({ users: [ANN] });
  const config = normalizeConfig(
    { ...(options.config ?? STATES_CONFIG), callbacks: { uiShown: options.uiShown } },
    STATES_ORIGIN,
  );
  const clock = options.clock ?? createTestClock();
  const flow = runFlow(
    {
      provider: options.provider ?? fake,
      config,
      url: options.url ?? STATES_URL,
      storage: options.storage ?? createMemoryStorage(),
      clock,
      createId: () => 'sid-1',
      navigate: () => undefined,
      initialState,
    },
    flowEngine,
  );
  return { fake, flow, clock };
}

describe('runFlow from a server’s state: what only the browser knows', () => {
  it('an email sign-in link this browser sent: the browser checks it against its own storage and signs in', async () => {
    const fake = createFakeProvider({ users: [ANN] });
    const storage = createMemoryStorage();
    const config = { signInOptions: [{ provider: 'email' as const, signInMethod: 'emailLink' as const }] };
    // This browser sends the link (its session goes to this browser's storage)…
    const sender = start(cardState('providerChooser'), { provider: fake, storage, config });
    sender.flow.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
    sender.flow.send({ type: 'SUBMIT_EMAIL', email: 'bea@example.com' });
    await settle();
    expect(sender.flow.getSnapshot().card).toBe('emailLinkSent');
    sender.flow.dispose();
    const link = fake.backend.outbox.lastEmail('bea@example.com')?.link ?? '';
    expect(link).toContain('oobCode');
    // …then opens it: the server, without that storage, rendered the confirmation card.
    const state = { ...cardState('emailLinkConfirmation'), link };
    const { flow } = start(state, { provider: fake, storage, config, url: link });
    await settle();
    expect(flow.getSnapshot().card).toBe('signedIn');
  });

  it('an anonymous user the browser’s SDK restores is the one a sign-up upgrades', async () => {
    const fake = createFakeProvider({ users: [ANN] });
    const guest = await fake.signInAnonymously();
    const provider = lazyProvider(fake);
    const { flow, clock } = start(
      { ...cardState('emailEntry'), email: '' },
      { provider: provider.lazy, config: { ...STATES_CONFIG, autoUpgradeAnonymousUsers: true } },
    );
    expect(flow.getSnapshot().upgradeUid).toBeNull();
    await provider.arrive(clock);
    expect(flow.getSnapshot().upgradeUid).toBe(guest.user.uid);
  });
});

describe('runFlow from a server’s state', () => {
  it('starts on that state, as it is, without START: an action code in the URL is not applied again', async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser(ANN);
    const link = fake.backend.sendVerificationEmail(uid, { url: `${STATES_ORIGIN}/action` }).link;
    const state = cardState('emailVerificationSuccess');
    const { flow } = start(state, { provider: fake, url: link });
    expect(flow.getSnapshot()).toBe(state);
    await settle();
    expect(flow.getSnapshot()).toBe(state);
    expect(fake.backend.calls).toEqual([]);
  });

  it('tells the app the card is shown (uiShown), once', async () => {
    let shown = 0;
    start(cardState('providerChooser'), { uiShown: () => shown++ });
    await settle();
    expect(shown).toBe(1);
  });

  it('starts with START when a federated redirect’s result waits in storage (only the browser can read it)', async () => {
    const storage = createMemoryStorage();
    storage.setItem('doorway.redirect', JSON.stringify({ pendingCredential: null }));
    const { flow, fake } = start(cardState('providerChooser'), { storage });
    await settle();
    expect(fake.backend.calls.map((c) => c.method)).toEqual(['getRedirectResult']);
    expect(flow.getSnapshot().card).toBe('providerChooser');
  });

  it('a step that needs neither a provider call nor its capabilities does not wait for a lazy provider; one that reads them does', () => {
    const lazy: LazyProvider = {
      loadScript: () => new Promise<void>(() => undefined),
      getProvider: () => null,
    };
    const { flow } = start(cardState('passwordSignIn'), { provider: lazy });
    flow.send({ type: 'GO_TO_RECOVERY' });
    expect(flow.getSnapshot().card).toBe('passwordRecovery');
    flow.send({ type: 'CANCEL' }); // back to password sign-in: reads the capabilities (combined card or not)
    expect(flow.getSnapshot().card).toBe('passwordRecovery');
  });

  it('an event that reads the capabilities waits for the provider, and the events after it wait in order', async () => {
    const fake = createFakeProvider({ users: [ANN] });
    const provider = lazyProvider(fake);
    const { flow, clock } = start({ ...cardState('emailEntry'), email: '' }, { provider: provider.lazy });
    flow.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    // Would go back to the chooser if it overtook the email: it waits behind it (and then meets its call).
    flow.send({ type: 'CANCEL' });
    await settle();
    expect(flow.getSnapshot().card).toBe('emailEntry');
    expect(flow.getSnapshot().pending).toBeNull();
    expect(fake.backend.calls).toEqual([]);
    await provider.arrive(clock);
    expect(flow.getSnapshot().card).toBe('passwordSignIn');
    expect(fake.backend.calls.map((c) => c.method)).toEqual(['fetchSignInMethodsForEmail']);
    expect(provider.loads.count).toBe(1);
  });

  it('a provider call waits for the lazy provider (the card shows the call in flight), then runs', async () => {
    const fake = createFakeProvider({ users: [ANN] });
    const provider = lazyProvider(fake);
    const { flow, clock } = start(cardState('passwordSignIn'), { provider: provider.lazy });
    flow.send({ type: 'SUBMIT_PASSWORD', password: ANN.password });
    expect(flow.getSnapshot().pending?.op.kind).toBe('passwordSignIn');
    await settle();
    expect(fake.backend.calls).toEqual([]);
    await provider.arrive(clock);
    expect(flow.getSnapshot().card).toBe('signedIn');
    expect(provider.loads.count).toBe(1);
  });

  it('a provider call whose provider cannot load fails on the card with provider-load-timeout', async () => {
    const lazy: LazyProvider = {
      loadScript: () => new Promise<void>(() => undefined),
      getProvider: () => null,
    };
    const { flow, clock } = start(cardState('passwordSignIn'), { provider: lazy });
    flow.send({ type: 'SUBMIT_PASSWORD', password: ANN.password });
    clock.advance(5000);
    await settle();
    expect(flow.getSnapshot()).toMatchObject({
      card: 'passwordSignIn',
      pending: null,
      error: 'provider-load-timeout',
    });
  });

  it('an event waiting for a provider that cannot load ends on the unrecoverable error card', async () => {
    const lazy: LazyProvider = { loadScript: async () => undefined, getProvider: () => null };
    const { flow, clock } = start({ ...cardState('emailEntry'), email: '' }, { provider: lazy });
    flow.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    await settle();
    clock.advance(10_000); // the library never appears
    await settle();
    expect(flow.getSnapshot()).toMatchObject({
      card: 'unrecoverableError',
      message: 'provider-load-timeout',
    });
  });
});
