/**
 * How the chooser looks and what it remembers: each option's button carries its provider (the stylesheet draws
 * its mark and colours from it) and keeps "Sign in with …" as its name; a configured provider's own label,
 * icon and colours; the `theme` option; and the "Last used" mark (kept as the option's id only, shown from
 * storage or from the server, forgotten with `showLastUsed: false`). The stylesheet's marks block is what
 * marks.mjs writes.
 */
import { readFileSync } from 'node:fs';
import { createFakeProvider } from '@doorway/adapter-fake';
import { createMemoryStorage, type KeyValueStorage, type WidgetConfigInput } from '@doorway/auth-core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types (the generator of the stylesheet's marks).
import { MARKS, roundPath, STYLES, withMarks } from '../marks.mjs';
import { LAST_USED_KEY, loadCards, SignInWidget } from '../src/index.ts';
import { LOGIN, settle } from './harness.tsx';

const OPTIONS: WidgetConfigInput['signInOptions'] = [
  'email',
  'phone',
  'google.com',
  'github.com',
  'microsoft.com',
  'apple.com',
  'facebook.com',
  'twitter.com',
  'yahoo.com',
  'anonymous',
  {
    provider: 'oidc.acme',
    name: 'Acme',
    label: 'Continue with Acme SSO',
    iconUrl: '/acme.svg',
    buttonColor: '#0a66c2',
    textColor: '#fff',
  },
];

function widget(config: Partial<WidgetConfigInput> = {}, props: Record<string, unknown> = {}) {
  const storage = (props.storage as KeyValueStorage | undefined) ?? createMemoryStorage();
  const fake = createFakeProvider();
  const element = (
    <SignInWidget
      config={{ signInOptions: OPTIONS, ...config }}
      provider={fake}
      url={LOGIN}
      storage={storage}
      navigate={() => undefined}
      {...props}
    />
  );
  return { storage, element };
}

const button = (name: string) => screen.getByRole('button', { name });

describe('provider buttons', () => {
  beforeAll(() => loadCards());

  it("carry their provider, for the stylesheet's mark and colours, and keep their names", () => {
    render(widget().element);
    const names = {
      email: 'Sign in with email',
      phone: 'Sign in with phone',
      'google.com': 'Sign in with Google',
      'github.com': 'Sign in with GitHub',
      'microsoft.com': 'Sign in with Microsoft',
      'apple.com': 'Sign in with Apple',
      'facebook.com': 'Sign in with Facebook',
      'twitter.com': 'Sign in with X',
      'yahoo.com': 'Sign in with Yahoo',
      anonymous: 'Continue as guest',
      'oidc.acme': 'Continue with Acme SSO',
    };
    for (const [provider, name] of Object.entries(names)) {
      expect(button(name).dataset.provider).toBe(provider);
      expect(button(name).getAttribute('aria-describedby')).toBeNull();
    }
  });

  it('give a configured provider its own icon and colours, and only that one', () => {
    render(widget().element);
    const acme = button('Continue with Acme SSO');
    expect(acme.style.getPropertyValue('--doorway-provider-bg')).toBe('#0a66c2');
    expect(acme.style.getPropertyValue('--doorway-provider-fg')).toBe('#fff');
    expect(acme.style.getPropertyValue('--doorway-icon')).toBe('url("/acme.svg")');
    expect(acme.style.getPropertyValue('--doorway-mark')).toBe('none');
    expect(button('Sign in with GitHub').getAttribute('style')).toBeNull();
  });
});

describe('theme', () => {
  it('follows the system unless light or dark is asked for', () => {
    const auto = render(widget().element);
    expect(auto.container.querySelector('.doorway')?.hasAttribute('data-theme')).toBe(false);
    auto.unmount();
    for (const theme of ['light', 'dark'] as const) {
      const { container, unmount } = render(widget({ theme }).element);
      expect(container.querySelector('.doorway')?.getAttribute('data-theme')).toBe(theme);
      unmount();
    }
  });

  it('is in the server render too', () => {
    expect(renderToString(widget({ theme: 'dark' }).element)).toContain('data-theme="dark"');
  });
});

describe('last used', () => {
  beforeAll(() => loadCards());

  it('marks the kept option once mounted, as its description: its name stays its label', async () => {
    const storage = createMemoryStorage();
    storage.setItem(LAST_USED_KEY, 'github.com');
    render(widget({}, { storage }).element);
    await settle();
    const github = screen.getByRole('button', { name: 'Sign in with GitHub' });
    const mark = document.getElementById(github.getAttribute('aria-describedby') ?? '');
    expect(mark?.textContent).toBe('Last used');
    expect(screen.getAllByText('Last used')).toHaveLength(1);
  });

  it('keeps the option of a sign-in, as its id only', async () => {
    const { storage, element } = widget();
    render(element);
    await settle();
    await userEvent.setup().click(button('Continue as guest'));
    await settle();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Signed in!');
    expect(storage.getItem(LAST_USED_KEY)).toBe('anonymous');
  });

  it('marks the option of a sign-in on the chooser after sign-out, without a reload', async () => {
    const { element } = widget({}, { lastUsed: 'github.com' });
    render(element);
    await settle();
    const user = userEvent.setup();
    await user.click(button('Continue as guest'));
    await settle();
    await user.click(button('Sign out'));
    await settle();
    await user.click(button('Sign in again'));
    await settle();
    const guest = button('Continue as guest');
    expect(document.getElementById(guest.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Last used',
    );
    expect(screen.getAllByText('Last used')).toHaveLength(1);
  });

  it('counts a password sign-in as the email option', async () => {
    const storage = createMemoryStorage();
    const fake = createFakeProvider({ users: [{ email: 'ann@example.com', password: 'abc123' }] });
    render(
      <SignInWidget
        config={{ signInOptions: ['email', 'github.com'] }}
        provider={fake}
        url={LOGIN}
        storage={storage}
        navigate={() => undefined}
      />,
    );
    await settle();
    const user = userEvent.setup();
    await user.click(button('Sign in with email'));
    await user.type(screen.getByLabelText('Email'), 'ann@example.com{Enter}');
    await settle();
    await user.type(screen.getByLabelText('Password'), 'abc123{Enter}');
    await settle();
    expect(storage.getItem(LAST_USED_KEY)).toBe('email');
  });

  it("is in the server's render when the server knows it, and the first render matches it", () => {
    const html = renderToString(widget({}, { lastUsed: 'yahoo.com' }).element);
    expect(html).toMatch(/data-provider="yahoo.com"[^>]*aria-describedby="([^"]+)"/);
    expect(html).toContain('>Last used</span>');
    expect(html.match(/Last used/g)).toHaveLength(1);
  });

  it('with showLastUsed: false, marks nothing, forgets the kept one and keeps no new one', async () => {
    const storage = createMemoryStorage();
    storage.setItem(LAST_USED_KEY, 'github.com');
    const { element } = widget({ showLastUsed: false }, { storage, lastUsed: 'github.com' });
    render(element);
    await settle();
    expect(screen.queryByText('Last used')).toBeNull();
    expect(storage.getItem(LAST_USED_KEY)).toBeNull();
    await userEvent.setup().click(button('Continue as guest'));
    await settle();
    expect(storage.getItem(LAST_USED_KEY)).toBeNull();
  });

  it('a storage that refuses the mark marks nothing and is not in the way of a sign-in', async () => {
    const kept = createMemoryStorage();
    const allowed = (key: string) => {
      if (key === LAST_USED_KEY) throw new Error('denied');
      return key;
    };
    const refusing: KeyValueStorage = {
      getItem: (key) => kept.getItem(allowed(key)),
      setItem: (key, value) => kept.setItem(allowed(key), value),
      removeItem: (key) => kept.removeItem(allowed(key)),
    };
    render(widget({}, { storage: refusing }).element);
    await settle();
    expect(screen.queryByText('Last used')).toBeNull();
    await userEvent.setup().click(button('Continue as guest'));
    await settle();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Signed in!');
  });
});

describe('styles.css', () => {
  it('has the marks marks.mjs writes (run `npm run marks -w @doorway/ui-cards` after changing one)', () => {
    const css = readFileSync(STYLES, 'utf8');
    expect(withMarks(css)).toBe(css);
    for (const provider of ['google.com', 'github.com', 'microsoft.com', 'apple.com', 'facebook.com']) {
      expect(css).toContain(`.doorway-provider[data-provider="${provider}"] {\n  --doorway-`);
    }
  });
});

describe('roundPath', () => {
  // SVG path numbers as a parser reads them: a sign or a second point starts the next number.
  const numbers = (d: string) => (d.match(/-?(\d*\.\d+|\d+)/g) ?? []).map(Number);

  it('keeps every number of a path, each within a twentieth of a unit', () => {
    const paths = [
      'M1.04.5l.113.82-.04.5.96.96',
      'M12 .297c-6.63 0-12 5.373-12 12 0 5.303 3.438 9.8 8.205 11.385.6.113.82-.258.82-.577',
      ...Object.values(MARKS as Record<string, { body: string }>).flatMap(({ body }) =>
        [...body.matchAll(/ d="([^"]+)"/g)].map((m) => m[1] as string),
      ),
    ];
    for (const d of paths) {
      const before = numbers(d);
      const after = numbers(roundPath(d));
      expect(after).toHaveLength(before.length);
      for (const [i, n] of after.entries()) {
        expect(Math.abs(n - (before[i] as number))).toBeLessThanOrEqual(0.05 + 1e-9);
      }
    }
  });
});
