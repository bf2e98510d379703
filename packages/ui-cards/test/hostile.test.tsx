/**
 * Hostile input: bounded fast-check runs over the config, action URLs, redirect targets, and what a person
 * types into the cards (emails, phone numbers, codes, passwords): unicode, very long strings, control
 * characters, HTML and script. Nothing crashes, nothing rejects unhandled (vitest fails the run on one),
 * no element is injected into the DOM (provider-supplied emails and names are rendered as text), and
 * redirects only ever go to the allowed origins. Plus a source check that no HTML is ever set as markup.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createFakeProvider, type FakeProvider } from '@doorway/adapter-fake';
import {
  ACTION_MODES,
  ConfigError,
  createMemoryStorage,
  handleActionCode,
  isSafeRedirectUrl,
  normalizeConfig,
  parseActionUrl,
  safeRedirect,
  uiText,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { cleanup, render } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SignInWidget } from '../src/index.ts';
import { ORIGIN, settle } from './harness.tsx';
import { createSession, recordCalls, type Session } from './session.tsx';

const PARTNER = 'https://partner.example';
const ALLOWED = [ORIGIN, PARTNER];

const MARKUP = [
  '<script>window.__doorwayPwned = 1</script>',
  '<img src=x onerror="window.__doorwayPwned = 1">',
  '"><svg onload=alert(1)>',
  "'><iframe src=javascript:alert(1)></iframe>",
  '<a href="javascript:alert(1)">x</a>',
  '{{constructor.constructor("alert(1)")()}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose.
  '${alert(1)}',
];
const URL_TRICKS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  'https://evil.example',
  'https://app.example@evil.example',
  'https://app.example.evil.example',
  '%2F%2Fevil.example',
  'https:evil.example',
  'https://evil.example\n/',
  `/${'a'.repeat(5000)}`,
  '/fine?next=1#x',
  `${PARTNER}/ok`,
];
const CONTROL = ['\u0000', '\u0007', '\b', '\r\n', '\u001b[31m', '\u202e', '\u2028', '\ufeff', '\ud800'];

/** Strings a hostile person, page or provider might produce. */
const hostile = fc.oneof(
  fc.constantFrom(...MARKUP, ...URL_TRICKS, ...CONTROL, '', ' '),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc
    .tuple(fc.constantFrom(...MARKUP, ...CONTROL, 'a', '😀'), fc.integer({ min: 200, max: 3000 }))
    .map(([s, n]) => s.repeat(Math.ceil(n / s.length))),
  fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...MARKUP, ...CONTROL)).map(([a, b]) => a + b),
);
const hostileUrl = fc.oneof(fc.constantFrom(...URL_TRICKS), fc.webUrl(), hostile);
const anyValue = fc.oneof(hostile, fc.anything({ maxDepth: 2 }));

/** Elements and attributes no card ever renders: their presence means markup got through. */
function injected(root: ParentNode = document.body): string[] {
  const found: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (
      ['script', 'img', 'iframe', 'svg', 'object', 'embed', 'style', 'link', 'meta', 'base'].includes(tag)
    ) {
      found.push(`<${tag}>`);
    }
    for (const attr of el.attributes) {
      if (attr.name.startsWith('on')) found.push(`${tag}[${attr.name}]`);
    }
    if (tag === 'a') {
      const href = el.getAttribute('href') ?? '';
      // Browsers drop whitespace and control characters inside a scheme ("java\tscript:").
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href.replace(/[\s\u0000-\u001f]/g, ''))?.[1];
      if (scheme !== undefined && !['http', 'https', 'mailto'].includes(scheme.toLowerCase())) {
        found.push(`a[href=${href}]`);
      }
    }
  }
  if ((globalThis as { __doorwayPwned?: unknown }).__doorwayPwned !== undefined) found.push('script ran');
  return found;
}

function expectOnAllowedOrigin(url: string): void {
  expect(ALLOWED).toContain(new URL(url).origin);
}

// fast-check runs many renders inside one test: each run cleans up after itself.
afterEach(() => cleanup());

describe('config (normalizeConfig) under hostile input', () => {
  const option = fc.oneof(
    anyValue,
    fc.constantFrom('email', 'phone', 'anonymous', 'google.com', 'emailLink'),
    fc.record(
      {
        provider: fc.oneof(fc.constantFrom('email', 'phone', 'google.com', 'emailLink'), hostile),
        signInMethod: fc.oneof(fc.constantFrom('password', 'emailLink'), anyValue),
        disableSignUp: fc.oneof(
          fc.boolean(),
          fc.record({ adminEmail: hostile, helpLink: hostileUrl }, { requiredKeys: [] }),
          anyValue,
        ),
        emailLinkUrl: hostileUrl,
        requireDisplayName: anyValue,
        name: hostile,
        defaultCountry: fc.oneof(fc.constantFrom('US', 'gb'), hostile),
        allowedCountries: fc.oneof(fc.array(fc.constantFrom('US', 'CA', 'xx')), anyValue),
        loginHint: hostile,
        scopes: anyValue,
        customParameters: anyValue,
      },
      { requiredKeys: ['provider'] },
    ),
  );
  const tenant = fc.oneof(
    anyValue,
    fc.record(
      {
        id: fc.oneof(fc.constant(null), hostile),
        displayName: hostile,
        emailDomains: fc.oneof(fc.array(hostile, { maxLength: 3 }), anyValue),
        signInOptions: fc.oneof(fc.array(option, { maxLength: 3 }), anyValue),
      },
      { requiredKeys: [] },
    ),
  );
  const config = fc.oneof(
    anyValue,
    fc.record(
      {
        signInOptions: fc.oneof(fc.array(option, { minLength: 1, maxLength: 4 }), anyValue),
        displayMode: fc.oneof(fc.constantFrom('optionFirst', 'identifierFirst'), anyValue),
        tenants: fc.oneof(fc.array(tenant, { maxLength: 3 }), anyValue),
        signInSuccessUrl: hostileUrl,
        tosUrl: hostileUrl,
        privacyPolicyUrl: hostileUrl,
        signInFlow: fc.oneof(fc.constantFrom('popup', 'redirect'), anyValue),
        allowedOrigins: fc.oneof(fc.array(hostileUrl, { maxLength: 3 }), anyValue),
        autoUpgradeAnonymousUsers: anyValue,
        callbacks: anyValue,
      },
      { requiredKeys: ['signInOptions'] },
    ),
  );

  // Mostly well-formed configs with hostile text where an app puts text and links: most are accepted.
  const plausible = fc.record(
    {
      signInOptions: fc.uniqueArray(
        fc.oneof(
          fc.constantFrom('email', 'phone', 'anonymous', 'github.com'),
          fc.record({
            provider: fc.constant('email'),
            disableSignUp: fc.record({ adminEmail: hostile, helpLink: hostileUrl }, { requiredKeys: [] }),
          }),
          fc.record({ provider: fc.constant('google.com'), name: hostile }),
        ),
        {
          minLength: 1,
          maxLength: 4,
          selector: (o) => (typeof o === 'string' ? o : o.provider),
        },
      ),
      tosUrl: hostileUrl,
      privacyPolicyUrl: hostileUrl,
      tenants: fc.uniqueArray(fc.record({ id: fc.oneof(fc.constant(null), hostile), displayName: hostile }), {
        minLength: 2,
        maxLength: 3,
        selector: (t) => t.id,
      }),
      displayMode: fc.constantFrom('optionFirst', 'identifierFirst'),
    },
    { requiredKeys: ['signInOptions'] },
  );

  function accepts(input: unknown) {
    try {
      return normalizeConfig(input as WidgetConfigInput, ORIGIN);
    } catch (error) {
      // A bad config is refused by name, never by a TypeError from deep inside.
      expect(error).toBeInstanceOf(ConfigError);
      return null;
    }
  }

  it('either refuses with a ConfigError or yields only http(s) links and allowed redirects', () => {
    fc.assert(
      fc.property(fc.oneof(config, plausible), (input) => {
        const cfg = accepts(input);
        if (cfg === null) return;
        for (const origin of cfg.allowedOrigins) expect(new URL(origin).origin).toBe(origin);
        expect(cfg.allowedOrigins[0]).toBe(ORIGIN);
        if (cfg.signInSuccessUrl !== null) {
          expect(isSafeRedirectUrl(cfg.signInSuccessUrl, cfg.allowedOrigins)).toBe(true);
        }
        const options = [...cfg.signInOptions, ...(cfg.tenants ?? []).flatMap((t) => t.signInOptions)];
        const links = [
          cfg.tosUrl,
          cfg.privacyPolicyUrl,
          ...options.map((o) => (o.provider === 'email' ? o.helpLink : null)),
        ];
        for (const link of links) {
          if (link !== null) expect(['http:', 'https:']).toContain(new URL(link, ORIGIN).protocol);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('an accepted config renders without injected markup', async () => {
    let rendered = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(plausible, config), async (input) => {
        const cfg = accepts(input);
        if (cfg === null) return;
        rendered += 1;
        const view = render(
          <SignInWidget
            config={input as WidgetConfigInput}
            provider={createFakeProvider()}
            url={`${ORIGIN}/login`}
            storage={createMemoryStorage()}
            navigate={() => undefined}
          />,
        );
        await settle();
        expect(view.container.querySelector('h1')).not.toBeNull();
        expect(injected()).toEqual([]);
        view.unmount();
      }),
      { numRuns: 40 },
    );
    expect(rendered).toBeGreaterThan(0);
  });
});

describe('action URLs under hostile input', () => {
  const actionUrl = fc
    .record({
      mode: fc.oneof(fc.constantFrom(...ACTION_MODES), hostile),
      oobCode: fc.oneof(fc.stringMatching(/^[\w-]{1,40}$/), hostile),
      continueUrl: fc.option(hostileUrl, { nil: undefined }),
      tenantId: fc.option(hostile, { nil: undefined }),
      lang: fc.option(hostile, { nil: undefined }),
    })
    .map((q) => {
      const url = new URL(`${ORIGIN}/action`);
      for (const [key, value] of Object.entries(q)) if (value !== undefined) url.searchParams.set(key, value);
      return url.href;
    });

  it('parseActionUrl never throws and returns only a known mode and a plain code', () => {
    fc.assert(
      fc.property(fc.oneof(actionUrl, hostile, hostileUrl), (url) => {
        const parsed = parseActionUrl(url);
        if (parsed === null) return;
        expect(ACTION_MODES).toContain(parsed.mode);
        if (parsed.oobCode !== null) expect(parsed.oobCode).toMatch(/^[\w-]{1,2048}$/);
      }),
      { numRuns: 300 },
    );
  });

  it('handleActionCode never throws and never returns a continue URL off the allowed origins', async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: 'ann@example.com', password: 'abc123' });
    await fc.assert(
      fc.asyncProperty(actionUrl, fc.boolean(), async (url, realCode) => {
        const u = new URL(url);
        if (realCode) u.searchParams.set('oobCode', fake.backend.sendVerificationEmail(uid).oobCode);
        const result = await handleActionCode(u, fake, { allowedOrigins: ALLOWED });
        if ('continueUrl' in result && result.continueUrl !== null) expectOnAllowedOrigin(result.continueUrl);
      }),
      { numRuns: 100 },
    );
  });

  it('the widget on a hostile action page renders as text and continues only to an allowed origin', async () => {
    await fc.assert(
      fc.asyncProperty(hostileUrl, async (continueUrl) => {
        const s = createSession({ config: { signInOptions: ['email'], allowedOrigins: [PARTNER] } });
        const uid = s.fake.backend.createUser({ email: 'ann@example.com' });
        const link = new URL(s.fake.backend.sendVerificationEmail(uid, { url: `${ORIGIN}/action` }).link);
        link.searchParams.set('continueUrl', continueUrl);
        await s.mount({ url: link.href });
        expect(s.card()).toBe('emailVerificationSuccess');
        await s.press(uiText.continue);
        expect(injected()).toEqual([]);
        for (const url of s.navigated) expectOnAllowedOrigin(url);
        cleanup();
      }),
      { numRuns: 20 },
    );
  });

  it('a hostile signInSuccessUrl on the page never redirects off the allowed origins', async () => {
    await fc.assert(
      fc.asyncProperty(hostileUrl, async (target) => {
        const s = createSession({ config: { signInOptions: ['anonymous'], allowedOrigins: [PARTNER] } });
        const page = new URL(`${ORIGIN}/login`);
        page.searchParams.set('signInSuccessUrl', target);
        await s.mount({ url: page.href });
        await s.press(uiText.continueAsGuest);
        expect(s.card()).toBe('signedIn');
        await s.advance(1000);
        for (const url of s.navigated) expectOnAllowedOrigin(url);
        cleanup();
      }),
      { numRuns: 20 },
    );
  });
});

describe('safeRedirect', () => {
  const origin = fc.oneof(fc.constantFrom(ORIGIN, PARTNER, 'http://localhost:3000'), fc.webUrl());
  it('returns null or an absolute http(s) URL on an allowed origin, without credentials', () => {
    fc.assert(
      fc.property(
        fc.oneof(hostileUrl, fc.webUrl({ withQueryParameters: true, withFragments: true })),
        fc.array(origin, { minLength: 1, maxLength: 3 }),
        fc.option(hostileUrl, { nil: null }),
        (url, origins, fallback) => {
          const allowed = origins.map((o) => new URL(o).origin);
          const result = safeRedirect(url, allowed, fallback);
          if (result === null) return;
          const parsed = new URL(result);
          expect(['http:', 'https:']).toContain(parsed.protocol);
          expect(allowed).toContain(parsed.origin);
          expect(parsed.username + parsed.password).toBe('');
          // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
          expect(result).not.toMatch(/[\u0000-\u001f\u007f\\]/);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('keeps every plain path on the page origin', () => {
    fc.assert(
      fc.property(fc.webPath(), (path) => {
        const url = `/${path.replace(/^\/+/, '')}`;
        const result = safeRedirect(url, [ORIGIN]);
        if (result !== null) expect(new URL(result).origin).toBe(ORIGIN);
      }),
      { numRuns: 300 },
    );
  });
});

/** Opens the widget and goes to a card. */
type Reach = (s: Session) => Promise<void>;

const LINK_CONFIG: WidgetConfigInput = { signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }] };

const CARD_INPUTS: {
  card: string;
  label: string;
  submit: string;
  reach: Reach;
  config?: WidgetConfigInput;
}[] = [
  {
    card: 'passwordRecovery',
    label: uiText.emailLabel,
    submit: uiText.send,
    reach: async (s) => {
      await s.mount();
      await s.press(uiText.signInWithEmail);
      await s.fill(uiText.emailLabel, 'ann@example.com');
      await s.press(uiText.next);
      await s.press(uiText.troubleSigningIn);
    },
  },
  {
    card: 'emailLinkConfirmation',
    label: uiText.emailLabel,
    submit: uiText.next,
    config: LINK_CONFIG,
    reach: async (s) => {
      await s.mount();
      await s.fill(uiText.emailLabel, 'new@example.com');
      await s.press(uiText.next);
      await s.mount({ url: s.lastLink('new@example.com'), newDevice: true });
    },
  },
  {
    card: 'passwordReset',
    label: uiText.newPasswordLabel,
    submit: uiText.save,
    reach: async (s) => {
      const user = s.fake.backend.findUserByEmail('ann@example.com');
      if (!user) throw new Error('no user');
      await s.mount({ url: s.fake.backend.sendPasswordReset(user.uid, { url: `${ORIGIN}/action` }).link });
    },
  },
  {
    card: 'emailEntry',
    label: uiText.emailLabel,
    submit: uiText.next,
    reach: async (s) => {
      await s.mount();
      await s.press(uiText.signInWithEmail);
    },
  },
  {
    card: 'passwordSignIn',
    label: uiText.passwordLabel,
    submit: uiText.signIn,
    reach: async (s) => {
      await s.mount();
      await s.press(uiText.signInWithEmail);
      await s.fill(uiText.emailLabel, 'ann@example.com');
      await s.press(uiText.next);
    },
  },
  {
    card: 'passwordSignUp',
    label: uiText.nameLabel,
    submit: uiText.save,
    reach: async (s) => {
      await s.mount();
      await s.press(uiText.signInWithEmail);
      await s.fill(uiText.emailLabel, 'new@example.com');
      await s.press(uiText.next);
      await s.fill(uiText.newPasswordLabel, 'secret99');
    },
  },
  {
    card: 'phoneEntry',
    label: uiText.phoneLabel,
    submit: uiText.verify,
    reach: async (s) => {
      await s.mount();
      await s.press(uiText.signInWithPhone);
    },
  },
  {
    card: 'phoneCode',
    label: uiText.codeLabel,
    submit: uiText.verify,
    reach: async (s) => {
      await s.mount();
      await s.press(uiText.signInWithPhone);
      await s.fill(uiText.phoneLabel, '(201) 555-0123');
      await s.press(uiText.verify);
    },
  },
];

describe('typed into the cards', () => {
  it.each(CARD_INPUTS)('$card: $label takes anything; no crash, no injected markup', async (c) => {
    await fc.assert(
      fc.asyncProperty(hostile, async (value) => {
        const s = createSession({
          config: c.config ?? { signInOptions: ['email', 'phone', 'google.com'] },
          fakeOptions: { users: [{ email: 'ann@example.com', password: 'abc123' }] },
        });
        await c.reach(s);
        expect(s.card()).toBe(c.card);
        await s.fill(c.label, value);
        await s.press(c.submit);
        await settle();
        expect(s.root().querySelector('h1')).not.toBeNull();
        expect(injected()).toEqual([]);
        // Whatever was typed went to the provider as a string, if at all, and came back as a code.
        expect(s.log.every((call) => call.settled)).toBe(true);
        cleanup();
      }),
      { numRuns: 10 },
    );
  });
});

describe('provider-supplied text is rendered as text', () => {
  function withHostileResults(fake: FakeProvider, text: string) {
    const { provider } = recordCalls(fake);
    return new Proxy(provider, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop === 'checkActionCode') {
          return async (code: string) => ({
            ...(await fake.checkActionCode(code)),
            email: text,
            factor: text,
          });
        }
        if (prop === 'verifyPasswordResetCode') {
          return async (code: string) => {
            await fake.verifyPasswordResetCode(code);
            return text;
          };
        }
        return value;
      },
    });
  }

  it('an IdP email and name on the email-mismatch and signed-in cards', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (email, displayName) => {
        const s = createSession({
          config: { signInOptions: ['email', 'google.com'] },
          fakeOptions: {
            users: [{ email: 'ann@example.com', federated: { providerId: 'google.com', sub: 'g' } }],
          },
        });
        s.fake.backend.idp.queue({ sub: 'other', email, displayName });
        await s.mount();
        await s.press(uiText.signInWithEmail);
        await s.fill(uiText.emailLabel, 'ann@example.com');
        await s.press(uiText.next);
        await s.press(uiText.signInWith('Google'));
        expect(injected()).toEqual([]);
        if (s.card() === 'emailMismatch') {
          expect(s.root().textContent).toContain(email.toLowerCase().trim());
          await s.press(uiText.continue);
        }
        expect(injected()).toEqual([]);
        cleanup();
      }),
      { numRuns: 15 },
    );
  });

  it('emails and second factors from action codes on their cards', async () => {
    const links: ((fake: FakeProvider, uid: string) => string)[] = [
      (fake, uid) => fake.backend.addSecondFactor(uid, '+12015550199', { url: `${ORIGIN}/action` }).link,
      (fake, uid) => fake.backend.changeEmail(uid, 'ann.new@example.com', { url: `${ORIGIN}/action` }).link,
      (fake, uid) => fake.backend.sendPasswordReset(uid, { url: `${ORIGIN}/action` }).link,
      (fake, uid) =>
        fake.backend.verifyAndChangeEmail(uid, 'ann.new@example.com', { url: `${ORIGIN}/action` }).link,
    ];
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom(...links), async (text, makeLink) => {
        const fake = createFakeProvider();
        const uid = fake.backend.createUser({ email: 'ann@example.com', password: 'abc123' });
        const view = render(
          <SignInWidget
            config={{ signInOptions: ['email'] }}
            provider={withHostileResults(fake, text)}
            url={makeLink(fake, uid)}
            storage={createMemoryStorage()}
            navigate={() => undefined}
          />,
        );
        await settle();
        expect(view.container.querySelector('h1')).not.toBeNull();
        expect(injected()).toEqual([]);
        if (text.trim() !== '') expect(view.container.textContent).toContain(text);
        view.unmount();
      }),
      { numRuns: 30 },
    );
  });
});

describe('no HTML is ever set as markup', () => {
  // This file is packages/ui-cards/test/hostile.test.tsx.
  const root = join(__dirname, '..', '..', '..');
  const SOURCE_DIRS = ['packages/*/src', 'apps/*/app', 'apps/*/src'];

  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      if (name === 'node_modules' || name === 'dist' || name === 'build') return [];
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return files(path);
      return /\.(tsx?|jsx?|mjs)$/.test(name) ? [path] : [];
    });
  }

  function sourceFiles(): string[] {
    return SOURCE_DIRS.flatMap((pattern) => {
      const [top, , sub] = pattern.split('/') as [string, string, string];
      return readdirSync(join(root, top))
        .map((pkg) => join(root, top, pkg, sub))
        .filter((dir) => {
          try {
            return statSync(dir).isDirectory();
          } catch {
            return false;
          }
        })
        .flatMap(files);
    });
  }

  it('no dangerouslySetInnerHTML or innerHTML = in packages/*/src, apps/*/app, apps/*/src', () => {
    const found = sourceFiles();
    expect(found.length).toBeGreaterThan(20);
    // One exception: the host inlines its own CSS, a build-time constant (`PAGE_CSS`), in a <style>.
    const ownCss = /<style(?: nonce=\{nonce\})? dangerouslySetInnerHTML=\{\{ __html: PAGE_CSS \}\} \/>/g;
    const offenders = found.filter((file) =>
      /dangerouslySetInnerHTML|\b(?:inner|outer)HTML\s*\+?=(?!=)|insertAdjacentHTML|document\.write\s*\(/.test(
        readFileSync(file, 'utf8').replace(ownCss, ''),
      ),
    );
    expect(offenders.map((f) => f.slice(root.length))).toEqual([]);
  });
});

// A sanity check of the detector itself, so a broken `injected` cannot pass everything.
describe('the injected-markup detector', () => {
  it('finds markup that got through', () => {
    const box = document.createElement('div');
    box.innerHTML = '<img src="x"><a href="javascript:alert(1)">x</a><b onclick="x()">y</b>';
    document.body.append(box);
    expect(injected()).toEqual(['<img>', 'a[href=javascript:alert(1)]', 'b[onclick]']);
    box.remove();
    expect(injected()).toEqual([]);
  });
});
