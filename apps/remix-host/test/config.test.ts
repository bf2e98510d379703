import { describe, expect, it } from 'vitest';
import { parseHostConfig, publicConfig } from '../app/config.server.ts';
import { configError } from './fakes.ts';

describe('parseHostConfig', () => {
  it('should run on the emulator with no variables set', () => {
    const config = parseHostConfig({});
    expect(config).toMatchObject({
      provider: 'firebase',
      firebase: {
        apiKey: 'demo-api-key',
        projectId: 'demo-doorway',
        authDomain: 'demo-doorway.firebaseapp.com',
      },
      emulatorHost: '127.0.0.1:9099',
      emailEnumerationProtection: false,
      recaptchaSize: 'normal',
      displayMode: 'optionFirst',
      tenants: null,
      successUrl: '/account',
      tosUrl: null,
      privacyUrl: null,
      allowedOrigins: [],
      port: 3000,
    });
    expect(config.signInOptions).toEqual([
      { provider: 'email', emailLinkUrl: '/action' },
      'phone',
      'google.com',
      'anonymous',
      'passkey',
    ]);
  });

  it('should use no emulator for a real project unless FIREBASE_AUTH_EMULATOR_HOST says so', () => {
    const real = parseHostConfig({ FIREBASE_PROJECT_ID: 'my-app-123', FIREBASE_API_KEY: 'AIza-key' });
    expect(real.emulatorHost).toBeNull();
    expect(real.emailEnumerationProtection).toBe(true);
    expect(real.firebase).toEqual({
      apiKey: 'AIza-key',
      projectId: 'my-app-123',
      authDomain: 'my-app-123.firebaseapp.com',
    });
    expect(
      parseHostConfig({ FIREBASE_PROJECT_ID: 'my-app-123', FIREBASE_AUTH_EMULATOR_HOST: 'localhost:9199' })
        .emulatorHost,
    ).toBe('localhost:9199');
  });

  it('should read sign-in options as a list or as JSON, sending email links to /action', () => {
    expect(parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: ' emailLink , github.com ' }).signInOptions).toEqual([
      { provider: 'email', signInMethod: 'emailLink', emailLinkUrl: '/action' },
      'github.com',
    ]);
    const json = parseHostConfig({
      DOORWAY_SIGN_IN_OPTIONS:
        '[{"provider":"email","requireDisplayName":false},{"provider":"phone","defaultCountry":"GB"}]',
    });
    expect(json.signInOptions).toEqual([
      { provider: 'email', requireDisplayName: false, emailLinkUrl: '/action' },
      { provider: 'phone', defaultCountry: 'GB' },
    ]);
  });

  it('should read the other widget settings', () => {
    const config = parseHostConfig({
      DOORWAY_DISPLAY_MODE: 'identifierFirst',
      DOORWAY_TENANTS: '[{"id":null,"displayName":"Staff","emailDomains":["acme.com"]}]',
      DOORWAY_SUCCESS_URL: '/welcome',
      DOORWAY_TOS_URL: '/terms',
      DOORWAY_PRIVACY_URL: 'https://example.com/privacy',
      DOORWAY_ALLOWED_ORIGINS: 'https://app.example.com, https://admin.example.com',
      DOORWAY_EMAIL_ENUMERATION_PROTECTION: 'true',
      DOORWAY_RECAPTCHA: 'invisible',
      PORT: '8080',
    });
    expect(config).toMatchObject({
      displayMode: 'identifierFirst',
      tenants: [{ id: null, displayName: 'Staff', emailDomains: ['acme.com'] }],
      successUrl: '/welcome',
      tosUrl: '/terms',
      privacyUrl: 'https://example.com/privacy',
      allowedOrigins: ['https://app.example.com', 'https://admin.example.com'],
      emailEnumerationProtection: true,
      recaptchaSize: 'invisible',
      port: 8080,
    });
  });

  it.each([
    [{ DOORWAY_PROVIDER: 'auth0' }, 'DOORWAY_PROVIDER'],
    [{ FIREBASE_PROJECT_ID: 'Not A Project' }, 'FIREBASE_PROJECT_ID'],
    [{ FIREBASE_AUTH_EMULATOR_HOST: 'http://127.0.0.1:9099' }, 'FIREBASE_AUTH_EMULATOR_HOST'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DOORWAY_SIGN_IN_OPTIONS: '[' }, 'DOORWAY_SIGN_IN_OPTIONS'],
    [{ DOORWAY_SIGN_IN_OPTIONS: '["email","email"]' }, 'DOORWAY_SIGN_IN_OPTIONS'],
    [{ DOORWAY_DISPLAY_MODE: 'sideways' }, 'DOORWAY_DISPLAY_MODE'],
    [{ DOORWAY_TENANTS: '{"id":"a"}' }, 'DOORWAY_TENANTS'],
    [{ DOORWAY_SUCCESS_URL: 'javascript:alert(1)' }, 'DOORWAY_SUCCESS_URL'],
    [{ DOORWAY_SUCCESS_URL: 'https://evil.example/' }, 'DOORWAY_SUCCESS_URL'],
    [{ DOORWAY_TOS_URL: 'data:text/html,hi' }, 'DOORWAY_TOS_URL'],
    [{ DOORWAY_ALLOWED_ORIGINS: 'https://app.example.com/path' }, 'DOORWAY_ALLOWED_ORIGINS'],
    [{ DOORWAY_EMAIL_ENUMERATION_PROTECTION: 'maybe' }, 'DOORWAY_EMAIL_ENUMERATION_PROTECTION'],
    [{ DOORWAY_RECAPTCHA: 'hidden' }, 'DOORWAY_RECAPTCHA'],
  ])('should refuse %j, naming %s', (env, variable) => {
    const error = configError(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
  });

  it('should allow a success URL on an allowed origin', () => {
    const config = parseHostConfig({
      DOORWAY_SUCCESS_URL: 'https://app.example.com/home',
      DOORWAY_ALLOWED_ORIGINS: 'https://app.example.com',
    });
    expect(config.successUrl).toBe('https://app.example.com/home');
  });
});

describe('publicConfig', () => {
  it('should give the browser the web config and widget settings, and nothing server-only', () => {
    const pub = publicConfig(
      parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: 'email,google.com,github.com,anonymous' }),
    );
    expect(Object.keys(pub).sort()).toEqual(
      [
        'allowedOrigins',
        'displayMode',
        'emailEnumerationProtection',
        'emulatorUrl',
        'federatedProviders',
        'firebase',
        'privacyUrl',
        'provider',
        'recaptchaSize',
        'signInOptions',
        'supabase',
        'tenants',
        'tosUrl',
      ].sort(),
    );
    expect(pub.emulatorUrl).toBe('http://127.0.0.1:9099');
    expect(pub.federatedProviders).toEqual(['google.com', 'github.com']);
    expect(publicConfig(parseHostConfig({ FIREBASE_PROJECT_ID: 'real-app' })).emulatorUrl).toBeNull();
  });
});
