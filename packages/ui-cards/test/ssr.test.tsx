// @vitest-environment node
/**
 * Server rendering: importing the package and `renderToString(<SignInWidget>)` work without `window`, and the
 * server render never calls the provider (a one-time action code must be left for the browser). With
 * `initialState` (a server's flow state) it renders that card, a later one once the cards chunk is loaded.
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { loadCards, loadedCards, SignInWidget } from '../src/index.ts';
import { cardState, STATES_CONFIG, STATES_URL } from './states.ts';

describe('SSR', () => {
  it('runs without window or document', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
  });

  it('renders the first card from the url prop', () => {
    const fake = createFakeProvider();
    const html = renderToString(
      <SignInWidget
        config={{ signInOptions: ['email', 'google.com'], tosUrl: '/terms' }}
        provider={fake}
        url="https://app.example/login"
      />,
    );
    expect(html).toContain('data-card="providerChooser"');
    expect(html).toContain('Sign in with Google');
    expect(html).toContain('href="/terms"');
    expect(fake.backend.calls).toHaveLength(0);
  });

  it('defaults the url to http://localhost/ and shows the spinner for an action code without applying it', () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: 'ann@example.com' });
    const link = fake.backend.sendVerificationEmail(uid, { url: 'http://localhost/action' }).link;
    expect(renderToString(<SignInWidget config={{ signInOptions: ['email'] }} provider={fake} />)).toContain(
      'Sign in with email',
    );
    const html = renderToString(
      <SignInWidget config={{ signInOptions: ['email'] }} provider={fake} url={link} />,
    );
    expect(html).toContain('data-card="spinner"');
    expect(html).toContain('role="progressbar"');
    expect(fake.backend.calls).toHaveLength(0);
  });

  it('marks the widget busy only while it shows a spinner for a card to come; a server card is usable', () => {
    const lazy = { loadScript: () => new Promise<void>(() => undefined), getProvider: () => null };
    const spinner = renderToString(<SignInWidget config={STATES_CONFIG} provider={lazy} url={STATES_URL} />);
    expect(spinner).toContain('data-card="spinner"');
    expect(spinner).toContain('aria-busy="true"');
    const chooser = renderToString(
      <SignInWidget
        config={STATES_CONFIG}
        provider={lazy}
        url={STATES_URL}
        initialState={cardState('providerChooser')}
      />,
    );
    expect(chooser).toContain('data-card="providerChooser"');
    expect(chooser).not.toContain('aria-busy');
  });

  it('renders the phone card heading while the lazy phone form loads', () => {
    const fake = createFakeProvider();
    const html = renderToString(<SignInWidget config={{ signInOptions: ['phone'] }} provider={fake} />);
    expect(html).toContain('Enter your phone number');
    expect(html).toContain('role="progressbar"');
    expect(fake.backend.calls).toHaveLength(0);
  });

  it('renders the card of initialState: a later card once the cards chunk is loaded (the spinner before)', async () => {
    const fake = createFakeProvider();
    const state = { ...cardState('passwordSignIn'), error: 'wrong-password' as const };
    const element = (
      <SignInWidget config={STATES_CONFIG} provider={fake} url={STATES_URL} initialState={state} />
    );
    expect(loadedCards()).toBeNull();
    const before = renderToString(element);
    expect(before).toContain('data-card="passwordSignIn"');
    expect(before).toContain('role="progressbar"');
    await loadCards();
    const html = renderToString(element);
    expect(html).toContain('<form class="doorway-form" method="post" novalidate="">');
    expect(html).toContain('<input type="hidden" name="event" value="SUBMIT_PASSWORD"/>');
    expect(html).toContain('The email and password you entered don&#x27;t match');
    expect(html).not.toContain('role="progressbar"');
    expect(fake.backend.calls).toHaveLength(0);
  });

  it('renders the first card of initialState as given, not the one START would show', () => {
    const fake = createFakeProvider();
    const html = renderToString(
      <SignInWidget
        config={STATES_CONFIG}
        provider={fake}
        url={STATES_URL}
        initialState={{ ...cardState('emailEntry'), email: 'ann@example.com', error: 'user-not-found' }}
      />,
    );
    expect(html).toContain('data-card="emailEntry"');
    expect(html).toContain('value="ann@example.com"');
    expect(fake.backend.calls).toHaveLength(0);
  });
});
