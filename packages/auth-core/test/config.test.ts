import { describe, expect, it, vi } from 'vitest';
import {
  ConfigError,
  methodOf,
  normalizeConfig,
  tenantForEmail,
  type WidgetConfigInput,
} from '../src/config.ts';

const ORIGIN = 'https://app.example';

function bad(input: unknown, option: string) {
  let error: unknown;
  try {
    normalizeConfig(input as WidgetConfigInput, ORIGIN);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).option).toBe(option);
  expect((error as Error).message).toContain(`\`${option}\``);
}

describe('normalizeConfig', () => {
  it('fills defaults', () => {
    const c = normalizeConfig({ signInOptions: ['email', 'google.com'] }, ORIGIN);
    expect(c.displayMode).toBe('optionFirst');
    expect(c.signInFlow).toBe('popup');
    expect(c.allowedOrigins).toEqual([ORIGIN]);
    expect(c.signInOptions[0]).toMatchObject({
      provider: 'email',
      signInMethod: 'password',
      requireDisplayName: true,
    });
    expect(c.signInOptions[1]).toMatchObject({
      provider: 'federated',
      providerId: 'google.com',
      name: 'Google',
    });
  });

  it.each([
    [{}, 'signInOptions'],
    [{ signInOptions: [] }, 'signInOptions'],
    [{ signInOptions: [42] }, 'signInOptions[0]'],
    [{ signInOptions: ['email', 'email'] }, 'signInOptions[1]'],
    [{ signInOptions: [{ provider: 'email', signInMethod: 'sms' }] }, 'signInOptions[0].signInMethod'],
    [{ signInOptions: [{ provider: 'phone', defaultCountry: 'USA' }] }, 'signInOptions[0].defaultCountry'],
    [
      { signInOptions: [{ provider: 'phone', allowedCountries: ['US', 'x'] }] },
      'signInOptions[0].allowedCountries[1]',
    ],
    [{ signInOptions: ['bad id!'] }, 'signInOptions[0].provider'],
    [{ signInOptions: ['email'], displayMode: 'emailFirst' }, 'displayMode'],
    [{ signInOptions: ['email'], signInFlow: 'tab' }, 'signInFlow'],
    [{ signInOptions: ['email'], signInSuccessUrl: 'javascript:alert(1)' }, 'signInSuccessUrl'],
    [{ signInOptions: ['email'], signInSuccessUrl: 'https://evil.example/' }, 'signInSuccessUrl'],
    [{ signInOptions: ['email'], tosUrl: '' }, 'tosUrl'],
    [{ signInOptions: ['email'], allowedOrigins: ['evil.example'] }, 'allowedOrigins[0]'],
    [{ signInOptions: ['email'], allowedOrigins: ['https://x.example/path'] }, 'allowedOrigins[0]'],
    [{ signInOptions: ['email'], tenants: [] }, 'tenants'],
    [{ signInOptions: ['email'], tenants: [{ id: '', displayName: 'A' }] }, 'tenants[0].id'],
    [{ signInOptions: ['email'], tenants: [{ id: 'a', displayName: '' }] }, 'tenants[0].displayName'],
    [
      {
        signInOptions: ['email'],
        tenants: [
          { id: 'a', displayName: 'A' },
          { id: 'a', displayName: 'B' },
        ],
      },
      'tenants[1].id',
    ],
    [{ signInOptions: ['email'], callbacks: { uiShown: 'yes' } }, 'callbacks.uiShown'],
  ])('fails fast on %j naming `%s`', (input, option) => bad(input, option));

  it('accepts an allow-listed success URL and picks tenants by email domain', () => {
    const c = normalizeConfig(
      {
        signInOptions: ['email'],
        allowedOrigins: ['https://partner.example'],
        signInSuccessUrl: 'https://partner.example/welcome',
        displayMode: 'identifierFirst',
        tenants: [
          { id: null, displayName: 'Everyone' },
          { id: 'acme', displayName: 'ACME', emailDomains: ['ACME.com'] },
        ],
      },
      ORIGIN,
    );
    expect(c.signInSuccessUrl).toBe('https://partner.example/welcome');
    expect(tenantForEmail(c, 'ann@acme.com')?.id).toBe('acme');
    expect(tenantForEmail(c, 'bob@other.org')?.id).toBeNull();
  });
});

describe('the look options', () => {
  it('theme is auto unless light or dark is asked for; anything else names the option', () => {
    expect(normalizeConfig({ signInOptions: ['email'] }, ORIGIN).theme).toBe('auto');
    expect(normalizeConfig({ signInOptions: ['email'], theme: 'dark' }, ORIGIN).theme).toBe('dark');
    expect(normalizeConfig({ signInOptions: ['email'], theme: 'light' }, ORIGIN).theme).toBe('light');
    bad({ signInOptions: ['email'], theme: 'blue' }, 'theme');
  });

  it('shows the last used method unless told not to', () => {
    expect(normalizeConfig({ signInOptions: ['email'] }, ORIGIN).showLastUsed).toBe(true);
    expect(normalizeConfig({ signInOptions: ['email'], showLastUsed: false }, ORIGIN).showLastUsed).toBe(
      false,
    );
  });

  it("keeps a custom provider's label, icon and colours", () => {
    const [option] = normalizeConfig(
      {
        signInOptions: [
          {
            provider: 'oidc.acme',
            name: 'Acme',
            label: 'Continue with Acme SSO',
            iconUrl: '/acme.svg',
            buttonColor: '#0a66c2',
            textColor: 'white',
          },
        ],
      },
      ORIGIN,
    ).signInOptions;
    expect(option).toMatchObject({
      label: 'Continue with Acme SSO',
      iconUrl: '/acme.svg',
      buttonColor: '#0a66c2',
      textColor: 'white',
    });
    const [plain] = normalizeConfig({ signInOptions: ['github.com'] }, ORIGIN).signInOptions;
    expect(plain).toMatchObject({ label: null, iconUrl: null, buttonColor: null, textColor: null });
  });

  it('takes image data URLs and refuses icons and colours that could break out of a style', () => {
    const icon = 'data:image/svg+xml,%3Csvg%20xmlns=%22http://www.w3.org/2000/svg%22/%3E';
    const [option] = normalizeConfig(
      { signInOptions: [{ provider: 'oidc.a', iconUrl: icon }] },
      ORIGIN,
    ).signInOptions;
    expect(option).toMatchObject({ iconUrl: icon });
    bad(
      { signInOptions: [{ provider: 'oidc.a', iconUrl: 'x.svg") ; color: red' }] },
      'signInOptions[0].iconUrl',
    );
    bad(
      { signInOptions: [{ provider: 'oidc.a', iconUrl: 'javascript:alert(1)' }] },
      'signInOptions[0].iconUrl',
    );
    bad(
      { signInOptions: [{ provider: 'oidc.a', buttonColor: 'red; background: url(x)' }] },
      'signInOptions[0].buttonColor',
    );
    bad({ signInOptions: [{ provider: 'oidc.a', textColor: 7 }] }, 'signInOptions[0].textColor');
    const [rgb] = normalizeConfig(
      { signInOptions: [{ provider: 'oidc.a', buttonColor: 'rgb(10 102 194 / 90%)' }] },
      ORIGIN,
    ).signInOptions;
    expect(rgb).toMatchObject({ buttonColor: 'rgb(10 102 194 / 90%)' });
  });
});

describe('methodOf', () => {
  it("counts password and email-link sign-ins as the email option, others as their provider's id", () => {
    expect(methodOf('password')).toBe('email');
    expect(methodOf('emailLink')).toBe('email');
    expect(methodOf('github.com')).toBe('github.com');
    expect(methodOf('phone')).toBe('phone');
  });
});

describe('unknown keys (#33)', () => {
  function message(input: unknown): string {
    try {
      normalizeConfig(input as WidgetConfigInput, ORIGIN);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
    throw new Error('normalizeConfig accepted the config');
  }

  it.each([
    [{ signInOptions: ['email'], signInSucessUrl: '/x' }, 'signInSucessUrl'],
    [{ signInOptions: ['email'], origin: ORIGIN }, 'origin'],
    [
      { signInOptions: ['email'], callbacks: { signInSuccessWithAuthResult: () => true } },
      'callbacks.signInSuccessWithAuthResult',
    ],
    [
      { signInOptions: [{ provider: 'email', requireDisplayname: false }] },
      'signInOptions[0].requireDisplayname',
    ],
    [{ signInOptions: [{ provider: 'email', adminEmail: 'a@b.c' }] }, 'signInOptions[0].adminEmail'],
    [
      { signInOptions: [{ provider: 'email', disableSignUp: { status: true } }] },
      'signInOptions[0].disableSignUp.status',
    ],
    [
      { signInOptions: ['email', { provider: 'phone', whitelistedCountries: ['GB'] }] },
      'signInOptions[1].whitelistedCountries',
    ],
    [{ signInOptions: [{ provider: 'google.com', providerId: 'x' }] }, 'signInOptions[0].providerId'],
    [{ signInOptions: [{ provider: 'google.com', fullLabel: 'Go' }] }, 'signInOptions[0].fullLabel'],
    [{ signInOptions: [{ provider: 'anonymous', scopes: [] }] }, 'signInOptions[0].scopes'],
    [
      { signInOptions: ['email'], tenants: [{ id: 'a', displayName: 'A', tosUrl: '/t' }] },
      'tenants[0].tosUrl',
    ],
    [
      {
        signInOptions: ['email'],
        tenants: [{ id: 'a', displayName: 'A', signInOptions: [{ provider: 'email', hd: 'a.com' }] }],
      },
      'tenants[0].signInOptions[0].hd',
    ],
    [{ signInOptions: ['email'], credentialHelper: 'none' }, 'credentialHelper'],
  ])('refuses %j naming `%s`', (input, option) => bad(input, option));

  it('says what to use instead of FirebaseUI names (in development builds)', () => {
    expect(
      message({ signInOptions: ['email'], callbacks: { signInSuccessWithAuthResult: () => true } }),
    ).toMatch(/`callbacks\.signInSuccessWithAuthResult` is not an option; .*use `callbacks\.signInSuccess/);
    expect(message({ signInOptions: ['email'], credentialHelper: 'none' })).toMatch(
      /no equivalent: remove it/,
    );
    expect(message({ signInOptions: ['email'], queryParameterForSignInSuccessUrl: 'next' })).toMatch(
      /reads the `signInSuccessUrl` query parameter/,
    );
    expect(message({ signInOptions: [{ provider: 'google.com', fullLabel: 'Go' }] })).toMatch(/use `label`/);
    expect(message({ signInOptions: ['email'], themee: 'dark' })).toBe(
      'Doorway config: `themee` is not an option',
    );
  });

  it('leaves the hints out of production builds, still naming the key', () => {
    vi.stubEnv('NODE_ENV', 'production');
    try {
      expect(
        message({ signInOptions: ['email'], callbacks: { signInSuccessWithAuthResult: () => true } }),
      ).toBe('Doorway config: `callbacks.signInSuccessWithAuthResult` is not an option');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('accepts every documented option, and free-form customParameters', () => {
    const config = normalizeConfig(
      {
        signInOptions: [
          {
            provider: 'email',
            signInMethod: 'emailLink',
            requireDisplayName: false,
            forceSameDevice: true,
            emailLinkUrl: '/finish',
            disableSignUp: { adminEmail: 'a@b.c', helpLink: '/help' },
          },
          { provider: 'phone', defaultCountry: 'GB', allowedCountries: ['GB'], loginHint: '+44' },
          {
            provider: 'google.com',
            name: 'G',
            scopes: ['x'],
            customParameters: { prompt: 'select_account', anything: 'y' },
            label: 'L',
            iconUrl: '/i.svg',
            buttonColor: '#fff',
            textColor: '#000',
          },
          { provider: 'anonymous' },
          'passkey',
        ],
        displayMode: 'identifierFirst',
        tenants: [{ id: null, displayName: 'All', emailDomains: ['a.com'], signInOptions: ['email'] }],
        signInSuccessUrl: '/ok',
        tosUrl: '/tos',
        privacyPolicyUrl: '/pp',
        signInFlow: 'redirect',
        autoUpgradeAnonymousUsers: true,
        allowedOrigins: ['https://b.example'],
        theme: 'dark',
        showLastUsed: false,
        callbacks: { signInSuccess: () => false, signInFailure: () => {}, uiShown: () => {} },
      },
      ORIGIN,
    );
    expect(config.signInOptions).toHaveLength(5);
  });
});
