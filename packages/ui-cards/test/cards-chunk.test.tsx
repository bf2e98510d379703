/**
 * The cards chunk: every card after the first and the engine behind them load after the first card
 * (`loadCards`). Each test imports the widget afresh (`vi.resetModules`), so the chunk is not loaded yet.
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import { createMemoryStorage, errorMessages, uiText } from '@doorway/auth-core';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGIN, open } from './harness.tsx';

afterEach(() => {
  vi.doUnmock('../src/cardsChunk.tsx');
  vi.doUnmock('../src/phoneNumbers.ts');
  vi.resetModules();
});

/**
 * The widget's modules, imported again: a page that has not loaded the cards chunk yet. `failing`: a lazily
 * loaded module whose load fails.
 */
async function freshWidget(options: { failing?: '../src/cardsChunk.tsx' | '../src/phoneNumbers.ts' } = {}) {
  if (options.failing)
    vi.doMock(options.failing, () => {
      throw new Error('the chunk failed to load');
    });
  vi.resetModules();
  return import('../src/index.ts');
}

describe('the cards chunk', () => {
  it('is not loaded by the first card, and a click made meanwhile takes effect once it has loaded', async () => {
    const ui = await freshWidget();
    const fake = createFakeProvider({ users: [{ email: 'ann@example.com', password: 'abc123' }] });
    render(
      <ui.SignInWidget
        config={{ signInOptions: ['email', 'google.com'] }}
        provider={fake}
        url={LOGIN}
        storage={createMemoryStorage()}
        navigate={() => undefined}
      />,
    );
    expect(ui.loadedCards()).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: uiText.signInWithEmail }));
    expect(await screen.findByRole('heading', { name: uiText.emailEntryTitle })).toBeTruthy();
    expect(ui.loadedCards()).not.toBeNull();
  });

  it('FlowRouter shows the spinner for a later card until the chunk has loaded, then the card', async () => {
    const o = await open({ signInOptions: ['email'], displayMode: 'identifierFirst' });
    await o.send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' });
    expect(o.card()).toBe('passwordSignUp');
    const ui = await freshWidget();
    render(
      <ui.WidgetContext.Provider value={{ config: o.config, getProvider: () => o.fake }}>
        <ui.FlowRouter state={o.flow.getSnapshot()} send={() => undefined} />
      </ui.WidgetContext.Provider>,
    );
    expect(screen.getByRole('progressbar')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: uiText.passwordSignUpTitle })).toBeTruthy();
  });

  it('FlowRouter shows the unrecoverable error card when the chunk fails to load', async () => {
    const o = await open({ signInOptions: ['email'], displayMode: 'identifierFirst' });
    await o.send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' });
    const ui = await freshWidget({ failing: '../src/cardsChunk.tsx' });
    await act(async () => {
      render(
        <ui.WidgetContext.Provider value={{ config: o.config, getProvider: () => o.fake }}>
          <ui.FlowRouter state={o.flow.getSnapshot()} send={() => undefined} />
        </ui.WidgetContext.Provider>,
      );
    });
    expect(await screen.findByRole('heading', { name: uiText.unrecoverableErrorTitle })).toBeTruthy();
    expect(screen.getByText(errorMessages['network-request-failed'])).toBeTruthy();
    await expect(ui.loadCards()).rejects.toThrow();
  });

  it('a widget whose chunk fails to load ends on the unrecoverable error card', async () => {
    const ui = await freshWidget({ failing: '../src/cardsChunk.tsx' });
    render(
      <ui.SignInWidget
        config={{ signInOptions: ['email', 'google.com'] }}
        provider={createFakeProvider()}
        url={LOGIN}
        storage={createMemoryStorage()}
      />,
    );
    expect(screen.getByRole('heading', { name: uiText.providerChooserTitle })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: uiText.unrecoverableErrorTitle })).toBeTruthy();
    expect(screen.getByText(errorMessages['network-request-failed'])).toBeTruthy();
  });

  it('a phone card whose chunks fail to load says so on the card instead of crashing the page', async () => {
    const ui = await freshWidget({ failing: '../src/phoneNumbers.ts' });
    render(
      <ui.SignInWidget
        config={{ signInOptions: ['phone'] }}
        provider={createFakeProvider()}
        url={LOGIN}
        storage={createMemoryStorage()}
      />,
    );
    expect(screen.getByRole('heading', { name: uiText.phoneEntryTitle })).toBeTruthy();
    expect(await screen.findByText(errorMessages['network-request-failed'])).toBeTruthy();
    expect(screen.getByRole('heading', { name: uiText.phoneEntryTitle })).toBeTruthy();
  });
});
