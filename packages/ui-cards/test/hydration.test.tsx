/**
 * `<SignInWidget initialState>` over a server's render: `hydrateRoot` on the `renderToString` output
 * matches (no mismatch, no recoverable error) for every card, keeps what a person typed before the page
 * hydrated, keeps the server's card (a working form) while the cards chunk loads, and the flow takes over
 * from that state: steps that need no provider call do not wait for a lazy provider, and one that does
 * waits for it and goes on when it loads.
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import {
  type AuthProvider,
  CARDS,
  createMemoryStorage,
  type FlowState,
  type LazyProvider,
  uiText,
} from '@doorway/auth-core';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LAST_USED_KEY, loadCards, SignInWidget, type SignInWidgetProps } from '../src/index.ts';
import { createTestClock, settle } from './harness.tsx';
import { cardState, STATES_CONFIG, STATES_URL } from './states.ts';

const ANN = { email: 'ann@example.com', password: 'abc123', displayName: 'Ann' };

let mounted: { root: Root; container: HTMLElement } | null = null;

afterEach(() => {
  if (mounted) {
    const { root, container } = mounted;
    act(() => root.unmount());
    container.remove();
    mounted = null;
  }
  vi.restoreAllMocks();
  vi.resetModules();
});

beforeAll(async () => {
  // The server side of these tests: a server renders later cards with the cards chunk loaded.
  await loadCards();
});

/** A lazy provider whose script loads at once and whose library appears when the test says so. */
function lazyProvider(provider: AuthProvider | null = null) {
  let ready: AuthProvider | null = null;
  const lazy: LazyProvider = { loadScript: async () => undefined, getProvider: () => ready };
  return {
    lazy,
    arrive() {
      ready = provider;
    },
  };
}

function widget(props: Partial<SignInWidgetProps> & { initialState: FlowState }): SignInWidgetProps {
  return {
    config: STATES_CONFIG,
    provider: createFakeProvider({ users: [ANN] }),
    url: STATES_URL,
    storage: createMemoryStorage(),
    clock: createTestClock(),
    navigate: () => undefined,
    ...props,
  };
}

/**
 * Puts the server's HTML in the page, lets `before` act on it as a person would before scripts run, then
 * hydrates `element` over it. Returns what React reported: mismatches are console errors in development,
 * and recoverable errors go to `onRecoverableError`.
 */
async function hydrate(html: string, element: ReactElement, before?: (container: HTMLElement) => void) {
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  before?.(container);
  const reported: unknown[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => reported.push(args));
  let root: Root | null = null;
  await act(async () => {
    root = hydrateRoot(container, element, { onRecoverableError: (error) => reported.push(error) });
  });
  mounted = { root: root as unknown as Root, container };
  return { container, reported };
}

function typeBeforeHydration(container: HTMLElement, selector: string, value: string) {
  const input = container.querySelector<HTMLInputElement>(selector);
  if (!input) throw new Error(`no ${selector}`);
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  return input;
}

describe('hydrating a server-rendered card', () => {
  // The phone form is a script's (the server renders its placeholder): it never hydrates server HTML.
  const hydratable = CARDS.filter((card) => card !== 'phoneEntry');

  it.each(hydratable)('%s: matches the server render', async (card) => {
    const props = widget({ initialState: cardState(card) });
    const html = renderToString(<SignInWidget {...props} />);
    const { container, reported } = await hydrate(html, <SignInWidget {...props} />);
    await settle();
    expect(reported).toEqual([]);
    expect(container.querySelector('[data-card]')?.getAttribute('data-card')).toBe(card);
  });

  // The mark is read from storage once mounted: it must re-render the chooser only, never make React drop
  // the server's HTML of a card still hydrating (a later card hydrates inside a Suspense boundary).
  it.each(['passwordSignIn', 'signedIn', 'providerChooser'] as const)(
    '%s: a kept "Last used" option does not disturb hydration',
    async (card) => {
      const storage = createMemoryStorage();
      storage.setItem(LAST_USED_KEY, 'github.com');
      const props = widget({ initialState: cardState(card), storage });
      const html = renderToString(<SignInWidget {...props} />);
      const { container, reported } = await hydrate(html, <SignInWidget {...props} />);
      await settle();
      expect(reported).toEqual([]);
      expect(container.querySelector('[data-card]')?.getAttribute('data-card')).toBe(card);
      if (card === 'providerChooser') {
        expect(
          screen.getByRole('button', { name: 'Sign in with GitHub' }).getAttribute('aria-describedby'),
        ).not.toBeNull();
      }
    },
  );

  it('the passkey option: not in the server HTML, shown once hydrated where the browser has WebAuthn', async () => {
    const config = { ...STATES_CONFIG, signInOptions: ['email', 'passkey'] };
    const props = widget({ initialState: cardState('providerChooser'), config });
    const html = renderToString(<SignInWidget {...props} />);
    expect(html).not.toContain('passkey');
    expect(html).toContain('Sign in with email');
    const had = 'PublicKeyCredential' in globalThis;
    vi.stubGlobal('PublicKeyCredential', class {});
    try {
      const { reported } = await hydrate(html, <SignInWidget {...props} />);
      await settle();
      expect(reported).toEqual([]);
      const button = screen.getByRole('button', { name: 'Sign in with a passkey' });
      expect(button.getAttribute('data-provider')).toBe('passkey');
    } finally {
      vi.unstubAllGlobals();
    }
    expect('PublicKeyCredential' in globalThis).toBe(had);
  });

  it('the passkey option: never shown where the browser has no WebAuthn', async () => {
    const config = { ...STATES_CONFIG, signInOptions: ['email', 'passkey'] };
    const props = widget({ initialState: cardState('providerChooser'), config });
    const html = renderToString(<SignInWidget {...props} />);
    const { reported } = await hydrate(html, <SignInWidget {...props} />);
    await settle();
    expect(reported).toEqual([]);
    expect(screen.getByRole('button', { name: 'Sign in with email' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });

  it('keeps the email typed before hydration, and SUBMIT_EMAIL waits for the lazy provider, then goes on', async () => {
    const fake = createFakeProvider({ users: [ANN] });
    const provider = lazyProvider(fake);
    const clock = createTestClock();
    const props = widget({
      initialState: { ...cardState('emailEntry'), email: '' },
      provider: provider.lazy,
      clock,
    });
    const html = renderToString(<SignInWidget {...props} />);
    let typed: HTMLInputElement | null = null;
    const { reported } = await hydrate(html, <SignInWidget {...props} />, (c) => {
      typed = typeBeforeHydration(c, 'input[name="email"]', ANN.email);
    });
    await settle();
    expect(reported).toEqual([]);
    const email = screen.getByLabelText(uiText.emailLabel) as HTMLInputElement;
    expect(email).toBe(typed);
    expect(email.value).toBe(ANN.email);

    await userEvent.click(screen.getByRole('button', { name: uiText.next }));
    await settle();
    // The provider has not loaded: the step waits (no call, the card as it was).
    expect(fake.backend.calls).toEqual([]);
    screen.getByRole('heading', { name: uiText.emailEntryTitle });

    provider.arrive();
    await act(async () => clock.advance(100));
    await settle();
    screen.getByRole('heading', { name: uiText.passwordSignInTitle });
    expect(fake.backend.calls.map((c) => c.method)).toEqual(['fetchSignInMethodsForEmail']);
  });

  it('chooser → email entry with a lazy provider that never loads: no provider call needed', async () => {
    const lazy: LazyProvider = {
      loadScript: () => new Promise<void>(() => undefined),
      getProvider: () => null,
    };
    const props = widget({ initialState: cardState('providerChooser'), provider: lazy });
    const html = renderToString(<SignInWidget {...props} />);
    const { reported } = await hydrate(html, <SignInWidget {...props} />);
    await settle();
    await userEvent.click(screen.getByRole('button', { name: uiText.signInWithEmail }));
    await settle();
    screen.getByRole('heading', { name: uiText.emailEntryTitle });
    await userEvent.click(screen.getByRole('button', { name: uiText.cancel }));
    await settle();
    screen.getByRole('heading', { name: uiText.providerChooserTitle });
    expect(reported).toEqual([]);
  });

  it('a later card stays the server’s (a working form) while the cards chunk loads, keeps what was typed, then takes over', async () => {
    const fake = createFakeProvider({ users: [ANN] });
    const props = widget({ initialState: cardState('passwordSignIn'), provider: fake });
    const html = renderToString(<SignInWidget {...props} />);
    // The browser: the widget's modules afresh, the cards chunk not loaded yet.
    vi.resetModules();
    const browser = await import('../src/index.ts');
    expect(browser.loadedCards()).toBeNull();
    let typed: HTMLInputElement | null = null;
    const { container, reported } = await hydrate(html, <browser.SignInWidget {...props} />, (c) => {
      typed = typeBeforeHydration(c, 'input[name="password"]', ANN.password);
    });
    // Whether or not the chunk has arrived yet, the server's card is the one on the page.
    expect(container.querySelector('input[name="password"]')).toBe(typed);
    await browser.loadCards();
    await settle();
    expect(reported).toEqual([]);
    const password = screen.getByLabelText(uiText.passwordLabel) as HTMLInputElement;
    expect(password).toBe(typed);
    expect(password.value).toBe(ANN.password);
    await userEvent.type(password, '{Enter}');
    await settle();
    screen.getByRole('heading', { name: uiText.signedIn });
    expect(fake.backend.calls.map((c) => c.method)).toEqual(['signInWithEmailAndPassword']);
  });
});
