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
      parseHostConfig({ FIREBASE_PROJECT_ID: 'demo-other', FIREBASE_AUTH_EMULATOR_HOST: 'localhost:9199' })
        .emulatorHost,
    ).toBe('localhost:9199');
  });

  // issue 24: firebase-admin skips signature checks on the emulator; only `demo-` projects may use it.
  it('should refuse to start with the emulator on a real project id, naming the variables, not the values', () => {
    const envs: Record<string, string>[] = [
      { FIREBASE_PROJECT_ID: 'my-app-123', FIREBASE_AUTH_EMULATOR_HOST: 'localhost:9199' },
      {
        FIREBASE_PROJECT_ID: 'my-app-123',
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
        NODE_ENV: 'production',
      },
      { FIREBASE_PROJECT_ID: 'demoapp-123', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' },
    ];
    for (const env of envs) {
      const error = configError(env);
      expect(error.variable).toBe('FIREBASE_AUTH_EMULATOR_HOST');
      expect(error.message).toContain('FIREBASE_PROJECT_ID');
      expect(error.message).toContain('demo-');
      expect(error.message).not.toContain(env.FIREBASE_PROJECT_ID as string);
      expect(error.message).not.toContain(env.FIREBASE_AUTH_EMULATOR_HOST as string);
    }
  });

  it('should keep npm start working: a demo- project on the emulator, in production mode', () => {
    const config = parseHostConfig({
      NODE_ENV: 'production',
      FIREBASE_PROJECT_ID: 'demo-doorway',
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      PORT: '3000',
    });
    expect(config.emulatorHost).toBe('127.0.0.1:9099');
    expect(config.firebase?.projectId).toBe('demo-doorway');
  });

  it('should read the public origin emailed URLs are built from, and trust it (issue 24)', () => {
    expect(parseHostConfig({}).publicOrigin).toBeNull();
    const config = parseHostConfig({
      DOORWAY_PUBLIC_ORIGIN: 'https://App.Example.com/',
      DOORWAY_ALLOWED_ORIGINS: 'https://admin.example.com',
    });
    expect(config.publicOrigin).toBe('https://app.example.com');
    expect(config.allowedOrigins).toEqual(['https://admin.example.com', 'https://app.example.com']);
    expect(publicConfig(config).allowedOrigins).toContain('https://app.example.com');
    const listed = parseHostConfig({
      DOORWAY_PUBLIC_ORIGIN: 'http://localhost:8080',
      DOORWAY_ALLOWED_ORIGINS: 'http://localhost:8080',
    });
    expect(listed.allowedOrigins).toEqual(['http://localhost:8080']);
  });

  it.each([
    'app.example.com',
    'ftp://app.example.com',
    'javascript:alert(1)',
    'https://app.example.com/login',
    'https://app.example.com?next=1',
    'https://app.example.com/?',
    'https://app.example.com#x',
    'https://user:secret-pw@app.example.com',
  ])('should refuse DOORWAY_PUBLIC_ORIGIN %j without echoing it', (raw) => {
    const error = configError({ DOORWAY_PUBLIC_ORIGIN: raw });
    expect(error.variable).toBe('DOORWAY_PUBLIC_ORIGIN');
    expect(error.message).not.toContain(raw);
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

describe('parseHostConfig: the flow secret (issue 24)', () => {
  // Test values only, shaped as `openssl rand -base64 48` / `openssl rand -hex 32` output.
  const CURRENT = '3wzrQXiEivAJLGz0UBPfvsrNkDFqY00xzewxM3w2XdY';
  const OLD = '5c670ea56037e642a5b2845b01b9f78b4bcbdca5fe0ab60100627f7bd1c0311d';

  it('should seal with DOORWAY_FLOW_SECRET and open with DOORWAY_FLOW_SECRET_PREVIOUS too', () => {
    expect(parseHostConfig({ DOORWAY_FLOW_SECRET: CURRENT }).flowSecret).toEqual([CURRENT]);
    const rotated = parseHostConfig({
      DOORWAY_FLOW_SECRET: CURRENT,
      DOORWAY_FLOW_SECRET_PREVIOUS: ` ${OLD} , ${'sI-bvMrdKfXGKNH9gmmKjlb-SZsW2gwFe8hxhHDuWg8'},`,
    });
    expect(rotated.flowSecret).toEqual([CURRENT, OLD, 'sI-bvMrdKfXGKNH9gmmKjlb-SZsW2gwFe8hxhHDuWg8']);
  });

  it('should make a random one per process when unset', () => {
    const a = parseHostConfig({}).flowSecret;
    const b = parseHostConfig({}).flowSecret;
    expect(a).toHaveLength(1);
    expect(a[0]).toMatch(/^[\w-]{64}$/);
    expect(a[0]).not.toBe(b[0]);
  });

  it('should refuse a human secret, naming the variable and how to make one, never the value', () => {
    for (const weak of [
      'a-32-character-human-secret-here',
      'correct horse battery staple correct horse battery',
      'x'.repeat(64),
    ]) {
      const error = configError({ DOORWAY_FLOW_SECRET: weak });
      expect(error.variable).toBe('DOORWAY_FLOW_SECRET');
      expect(error.message).toContain('openssl rand -base64 48');
      expect(error.message).not.toContain(weak);
    }
    const previous = configError({
      DOORWAY_FLOW_SECRET: CURRENT,
      DOORWAY_FLOW_SECRET_PREVIOUS: `${OLD},changeme-changeme-changeme-changeme`,
    });
    expect(previous.variable).toBe('DOORWAY_FLOW_SECRET_PREVIOUS');
    expect(previous.message).not.toContain('changeme');
    expect(configError({ DOORWAY_FLOW_SECRET_PREVIOUS: OLD }).variable).toBe('DOORWAY_FLOW_SECRET_PREVIOUS');
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
