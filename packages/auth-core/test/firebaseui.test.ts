import { describe, expect, it, vi } from 'vitest';
import { normalizeConfig } from '../src/config.ts';
import { type FirebaseUiConfig, fromFirebaseUiConfig } from '../src/firebaseui.ts';
import { annSignIn } from './results.ts';

const ORIGIN = 'https://app.example';

const RESULT = annSignIn(true);

describe('fromFirebaseUiConfig (#33)', () => {
  it('converts a typical FirebaseUI v6 config, which then normalises', () => {
    const uiShown = vi.fn();
    const { config, unsupported } = fromFirebaseUiConfig({
      signInSuccessUrl: '/account',
      signInOptions: [
        'google.com',
        { provider: 'github.com', scopes: ['repo'], customParameters: { allow_signup: 'false' } },
        { provider: 'password', requireDisplayName: false },
        { provider: 'phone', defaultCountry: 'GB', whitelistedCountries: ['GB', '+33'] },
        'anonymous',
        {
          provider: 'microsoft.com',
          providerName: 'Microsoft',
          fullLabel: 'Work account',
          buttonColor: '#2F2F2F',
        },
      ],
      tosUrl: '/tos',
      privacyPolicyUrl: '/privacy',
      callbacks: { uiShown },
    });
    expect(config).toMatchObject({
      signInSuccessUrl: '/account',
      signInFlow: 'redirect',
      tosUrl: '/tos',
      privacyPolicyUrl: '/privacy',
      signInOptions: [
        'google.com',
        { provider: 'github.com', scopes: ['repo'], customParameters: { allow_signup: 'false' } },
        { provider: 'email', signInMethod: 'password', requireDisplayName: false },
        { provider: 'phone', defaultCountry: 'GB', allowedCountries: ['GB'] },
        'anonymous',
        { provider: 'microsoft.com', name: 'Microsoft', label: 'Work account', buttonColor: '#2F2F2F' },
      ],
    });
    expect(unsupported).toEqual([
      'signInOptions[3].whitelistedCountries: +33: dial codes have no equivalent (list ISO country codes)',
    ]);
    const normalized = normalizeConfig(config, ORIGIN);
    expect(normalized.signInOptions.map((o) => o.provider)).toEqual([
      'federated',
      'federated',
      'email',
      'phone',
      'anonymous',
      'federated',
    ]);
    normalized.callbacks.uiShown?.();
    expect(uiShown).toHaveBeenCalledOnce();
  });

  it('passes signInSuccessWithAuthResult an auth result and keeps its return value', async () => {
    const seen: unknown[] = [];
    const { config } = fromFirebaseUiConfig({
      signInOptions: ['password'],
      callbacks: {
        signInSuccessWithAuthResult(authResult, redirectUrl) {
          seen.push(authResult.user.email, authResult.additionalUserInfo.isNewUser, redirectUrl);
          return false;
        },
      },
    });
    const normalized = normalizeConfig(config, ORIGIN);
    expect(await normalized.callbacks.signInSuccess?.(RESULT, '/next')).toBe(false);
    expect(seen).toEqual(['ann@example.com', true, '/next']);
  });

  it("gives signInFailure FirebaseUI's merge-conflict code and the pending credential", async () => {
    const signInFailure = vi.fn(async () => {});
    const { config } = fromFirebaseUiConfig({
      signInOptions: ['google.com'],
      autoUpgradeAnonymousUsers: true,
      callbacks: { signInFailure },
    });
    expect(config.autoUpgradeAnonymousUsers).toBe(true);
    const credential = { kind: 'password', email: 'a@b.c', password: 'pw1234' } as const;
    await config.callbacks?.signInFailure?.({ code: 'anonymous-upgrade-merge-conflict', credential });
    expect(signInFailure).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'firebaseui/anonymous-upgrade-merge-conflict', credential }),
    );
  });

  it('converts email link sign-in with its action code settings URL and restricted sign-up', () => {
    const { config, unsupported } = fromFirebaseUiConfig({
      signInFlow: 'popup',
      signInOptions: [
        {
          provider: 'password',
          signInMethod: 'emailLink',
          forceSameDevice: true,
          disableSignUp: { status: true, adminEmail: 'admin@example.com', helpLink: '/help' },
          emailLinkSignIn: () => ({
            url: 'https://app.example/finish',
            handleCodeInApp: true,
            dynamicLinkDomain: 'x.page.link',
          }),
        },
      ],
    });
    expect(config.signInFlow).toBe('popup');
    expect(config.signInOptions[0]).toEqual({
      provider: 'email',
      signInMethod: 'emailLink',
      forceSameDevice: true,
      disableSignUp: { adminEmail: 'admin@example.com', helpLink: '/help' },
      emailLinkUrl: 'https://app.example/finish',
    });
    expect(unsupported).toEqual([
      expect.stringMatching(/^signInOptions\[0\]\.emailLinkSignIn\(\)\.dynamicLinkDomain: /),
    ]);
    expect(() => normalizeConfig(config, ORIGIN)).not.toThrow();
  });

  it('converts multi-tenant configs: `_` is the project, `hd` becomes email domains', () => {
    const { config, unsupported } = fromFirebaseUiConfig({
      displayMode: 'identifierFirst',
      signInOptions: ['password'],
      tenants: {
        _: { displayName: 'Everyone', signInOptions: ['password'] },
        'tenant-a': {
          displayName: 'ACME',
          signInOptions: [{ provider: 'password', hd: 'acme.com' }, 'google.com'],
          tosUrl: '/acme-tos',
        },
        '*': { signInOptions: ['password'] },
      },
    });
    expect(config.displayMode).toBe('identifierFirst');
    expect(config.tenants).toEqual([
      { id: null, displayName: 'Everyone', signInOptions: [{ provider: 'email', signInMethod: 'password' }] },
      {
        id: 'tenant-a',
        displayName: 'ACME',
        emailDomains: ['acme.com'],
        signInOptions: [{ provider: 'email', signInMethod: 'password' }, 'google.com'],
      },
    ]);
    expect(unsupported).toEqual([
      'tenants.tenant-a.tosUrl: set it once, at the top level of the config',
      'tenants.*: a default for every tenant has no equivalent (list each tenant)',
    ]);
    expect(normalizeConfig(config, ORIGIN).tenants).toHaveLength(2);
  });

  it('names every option without an equivalent, with what to do instead', () => {
    const ui: FirebaseUiConfig = {
      signInOptions: [
        { provider: 'google.com', clientId: 'x.apps.googleusercontent.com', loginHintKey: 'login_hint' },
        { provider: 'phone', recaptchaParameters: { size: 'invisible' }, defaultNationalNumber: '1234' },
      ],
      credentialHelper: 'none',
      immediateFederatedRedirect: true,
      siteName: 'Example',
      queryParameterForSignInSuccessUrl: 'next',
      queryParameterForWidgetMode: 'mode',
      tosUrl: () => {},
      callbacks: { signInUiShown: () => {} },
      signInSucessUrl: '/typo',
    };
    const { unsupported } = fromFirebaseUiConfig(ui);
    expect(unsupported.map((u) => u.slice(0, u.indexOf(':')))).toEqual([
      'credentialHelper',
      'immediateFederatedRedirect',
      'siteName',
      'signInSucessUrl',
      'queryParameterForSignInSuccessUrl',
      'signInOptions[0].clientId',
      'signInOptions[0].loginHintKey',
      'signInOptions[1].recaptchaParameters',
      'signInOptions[1].defaultNationalNumber',
      'callbacks.signInUiShown',
      'tosUrl',
    ]);
    expect(unsupported.join('\n')).toMatch(/recaptchaParameters: .*`recaptcha` to `createFirebaseProvider`/);
    expect(unsupported).toContain('signInSucessUrl: is not a FirebaseUI v6 option Doorway knows: left out');
  });
});
