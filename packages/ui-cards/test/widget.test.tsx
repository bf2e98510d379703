/**
 * `<SignInWidget>`: ownership of the flow (StrictMode, one widget per page, remounts), config errors, focus
 * management, the live region, pending/busy states and `useFlow`.
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import {
  createFlow,
  createMemoryStorage,
  type Flow,
  normalizeConfig,
  uiText,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCards, SignInWidget, useFlow } from '../src/index.ts';
import { createTestClock, LOGIN, ORIGIN, settle } from './harness.tsx';

const CONFIG: WidgetConfigInput = { signInOptions: ['email', 'google.com', 'phone'] };

function widget(props: Partial<Parameters<typeof SignInWidget>[0]> = {}) {
  const fake = createFakeProvider({ users: [{ email: 'ann@example.com', password: 'abc123' }] });
  const element = (
    <SignInWidget
      config={CONFIG}
      provider={fake}
      url={LOGIN}
      storage={createMemoryStorage()}
      createId={() => 'sid-1'}
      navigate={() => undefined}
      {...props}
    />
  );
  return { fake, element };
}

function root(container: HTMLElement): HTMLElement {
  const el = container.querySelector<HTMLElement>('.doorway');
  if (!el) throw new Error('no widget');
  return el;
}

/** Waits until the widget's flow has started (it starts one microtask after mount). */
async function started(container: HTMLElement) {
  await settle();
  expect(root(container).getAttribute('aria-busy')).toBeNull();
}

describe('SignInWidget', () => {
  // These tests click through cards at once; the cards chunk's loading is cards-chunk.test.tsx's subject
  // (on a loaded machine its first import takes longer than a test waits for a card).
  beforeAll(() => loadCards());

  it('renders the first card and runs a sign-in on the fake provider', async () => {
    const { element } = widget();
    const { container } = render(element);
    await started(container);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign in with email' }));
    await user.type(screen.getByLabelText('Email'), 'ann@example.com{Enter}');
    await settle();
    await user.type(screen.getByLabelText('Password'), 'abc123{Enter}');
    await settle();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Signed in!');
  });

  it('a click made after mount but before the flow has started is kept for it, not dropped', async () => {
    const { element } = widget();
    const { container } = render(element);
    // The flow starts one microtask after mount: this click comes first, on a card that is not busy (a
    // card shown is usable at once).
    expect(root(container).getAttribute('aria-busy')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with email' }));
    await started(container);
    screen.getByRole('heading', { name: uiText.emailEntryTitle });
  });

  it('StrictMode: the double mount starts exactly one flow (a one-time action code is applied once)', async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: 'ann@example.com', password: 'abc123' });
    const link = fake.backend.sendVerificationEmail(uid, { url: `${ORIGIN}/action` }).link;
    const { container } = render(
      <StrictMode>
        <SignInWidget config={CONFIG} provider={fake} url={link} storage={createMemoryStorage()} />
      </StrictMode>,
    );
    await started(container);
    screen.getByRole('heading', { name: uiText.emailVerificationSuccessTitle });
    expect(fake.backend.calls.filter((c) => c.method === 'applyActionCode')).toHaveLength(1);
  });

  it('StrictMode: unmount disposes the flow and a remount starts a fresh one', async () => {
    const { element, fake } = widget();
    const first = render(<StrictMode>{element}</StrictMode>);
    await started(first.container);
    first.unmount();
    const second = render(<StrictMode>{element}</StrictMode>);
    await started(second.container);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign in with email' }));
    await user.type(screen.getByLabelText('Email'), 'ann@example.com{Enter}');
    await settle();
    expect(fake.backend.calls.filter((c) => c.method === 'fetchSignInMethodsForEmail')).toHaveLength(1);
    screen.getByLabelText('Password');
  });

  it('a second simultaneously mounted widget renders a clear error; after unmount a new one works', async () => {
    const a = widget();
    const b = widget();
    const first = render(a.element);
    await started(first.container);
    const second = render(b.element);
    await settle();
    expect(second.container.textContent).toBe('Doorway: only one sign-in widget may be mounted per page');
    expect(first.container.querySelector('[data-card="providerChooser"]')).not.toBeNull();
    second.unmount();
    first.unmount();
    const third = render(widget().element);
    await started(third.container);
    screen.getByRole('button', { name: 'Sign in with email' });
  });

  it('SPA navigation: a new key (new URL) replaces the flow', async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: 'ann@example.com', password: 'abc123' });
    const link = fake.backend.sendVerificationEmail(uid, { url: `${ORIGIN}/action` }).link;
    const storage = createMemoryStorage();
    const view = render(
      <SignInWidget key={LOGIN} config={CONFIG} provider={fake} url={LOGIN} storage={storage} />,
    );
    await started(view.container);
    screen.getByRole('button', { name: 'Sign in with email' });
    view.rerender(<SignInWidget key={link} config={CONFIG} provider={fake} url={link} storage={storage} />);
    await started(view.container);
    screen.getByRole('heading', { name: uiText.emailVerificationSuccessTitle });
  });

  it('a bad config throws ConfigError naming the option', () => {
    const { element } = widget({ config: { signInOptions: [] } });
    expect(() => render(element)).toThrow(/Doorway config: `signInOptions` must be a non-empty array/);
  });

  it('moves focus to the new card heading on every card change', async () => {
    const { element } = widget();
    const { container } = render(element);
    await started(container);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign in with email' }));
    expect(document.activeElement).toBe(
      screen.getByRole('heading', { level: 1, name: uiText.emailEntryTitle }),
    );
    await user.type(screen.getByLabelText('Email'), 'ann@example.com{Enter}');
    await settle();
    expect(document.activeElement?.textContent).toBe(uiText.passwordSignInTitle);
    expect(document.activeElement?.tagName).toBe('H1');
  });

  it('announces an error once, by moving focus to the field it describes (issue 32)', async () => {
    const { element } = widget({ config: { signInOptions: ['email'] } });
    const { container } = render(element);
    await started(container);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await settle();
    const field = screen.getByLabelText('Email');
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const described = (field.getAttribute('aria-describedby') ?? '').split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent)).toContain(
      'Enter your email address to continue',
    );
    // Said by the focus move, not a second time by a live region.
    expect(container.querySelector('[role="alert"], [aria-live="assertive"]')).toBeNull();
  });

  it('disables submit buttons while a call is pending and shows the spinner only once busy (500 ms)', async () => {
    const clock = createTestClock();
    const releases: (() => void)[] = [];
    const fake = createFakeProvider({
      faults: { latencyMs: 1 },
      sleep: () => new Promise<void>((resolve) => releases.push(resolve)),
    });
    const { container } = render(
      <SignInWidget
        config={{ signInOptions: ['email'] }}
        provider={fake}
        url={LOGIN}
        storage={createMemoryStorage()}
        clock={clock}
      />,
    );
    await started(container);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ann@example.com{Enter}');
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    expect(screen.queryByRole('progressbar')).toBeNull();
    await user.click(next);
    expect(fake.backend.calls).toHaveLength(1);
    await act(async () => clock.advance(500));
    screen.getByRole('progressbar', { name: uiText.spinnerLabel });
    for (const release of releases) release();
    await settle();
    expect(screen.queryByRole('progressbar')).toBeNull();
    screen.getByRole('heading', { name: uiText.passwordSignUpTitle });
  });

  it('loads a lazy provider behind the spinner card', async () => {
    const fake = createFakeProvider();
    let ready = false;
    const lazy = { loadScript: async () => undefined, getProvider: () => (ready ? fake : null) };
    const clock = createTestClock();
    const { container } = render(
      <SignInWidget
        config={CONFIG}
        provider={lazy}
        url={LOGIN}
        storage={createMemoryStorage()}
        clock={clock}
      />,
    );
    await started(container);
    screen.getByRole('progressbar', { name: uiText.spinnerLabel });
    ready = true;
    await act(async () => clock.advance(100));
    await settle();
    screen.getByRole('button', { name: 'Sign in with email' });
  });
});

describe('useFlow', () => {
  function flowOn() {
    const fake = createFakeProvider();
    return createFlow({
      provider: fake,
      config: normalizeConfig({ signInOptions: ['email', 'phone'] }, ORIGIN),
      url: LOGIN,
      storage: createMemoryStorage(),
      clock: createTestClock(),
    });
  }

  it('returns the snapshot and follows changes', () => {
    const flow = flowOn();
    const { result } = renderHook(() => useFlow(flow));
    expect(result.current.card).toBe('providerChooser');
    act(() => flow.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' }));
    expect(result.current.card).toBe('emailEntry');
  });

  it('re-renders only when the selected value changes', () => {
    const flow: Flow = flowOn();
    act(() => flow.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' }));
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useFlow(
        flow,
        (s) => ({ card: s.card }),
        (a, b) => a.card === b.card,
      );
    });
    const before = renders;
    act(() => flow.send({ type: 'SUBMIT_EMAIL', email: '' }));
    expect(flow.getSnapshot().error).toBe('email-required');
    expect(renders).toBe(before);
    expect(result.current).toEqual({ card: 'emailEntry' });
  });
});
