// A FirebaseUI v6 app moving to Doorway: its FirebaseUI config, unchanged, goes through
// fromFirebaseUiConfig; the result drives the flow engine on the Firebase provider against the Auth
// emulator (FIREBASE_AUTH_EMULATOR_HOST, set by `firebase emulators:exec`) from the chooser to signed in.
// Then a config with a misspelt key, as read from JSON, must fail with a ConfigError naming the key.

import assert from 'node:assert/strict';
import { createFirebaseProvider } from '@doorway/adapter-firebase';
import {
  ConfigError,
  createFlow,
  createMemoryStorage,
  type Flow,
  type FlowState,
  normalizeConfig,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { type FirebaseUiConfig, fromFirebaseUiConfig } from '@doorway/auth-core/firebaseui';
import { deleteApp } from 'firebase/app';
import { EmailAuthProvider, GithubAuthProvider, GoogleAuthProvider } from 'firebase/auth';

const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
if (!host) throw new Error('FIREBASE_AUTH_EMULATOR_HOST is not set: run under `firebase emulators:exec`');
const projectId = process.env.GCLOUD_PROJECT ?? 'demo-doorway';
const ORIGIN = 'http://localhost:5173';

const signedIn: { email: string | null; isNewUser: boolean; redirectUrl: string | undefined }[] = [];

// The app's FirebaseUI config, as it was passed to `ui.start('#firebaseui-auth-container', uiConfig)`.
const uiConfig: FirebaseUiConfig = {
  signInSuccessUrl: '/account',
  signInFlow: 'popup',
  signInOptions: [
    GoogleAuthProvider.PROVIDER_ID,
    { provider: GithubAuthProvider.PROVIDER_ID, scopes: ['read:user'] },
    { provider: EmailAuthProvider.PROVIDER_ID, requireDisplayName: false },
  ],
  callbacks: {
    signInSuccessWithAuthResult(authResult, redirectUrl) {
      signedIn.push({
        email: authResult.user.email,
        isNewUser: authResult.additionalUserInfo.isNewUser,
        redirectUrl,
      });
      return false;
    },
  },
  tosUrl: '/terms',
  privacyPolicyUrl: '/privacy',
  credentialHelper: 'none',
};

const { config, unsupported } = fromFirebaseUiConfig(uiConfig);
assert.deepEqual(
  unsupported.map((u) => u.slice(0, u.indexOf(':'))),
  ['credentialHelper'],
  unsupported.join('\n'),
);

/** Resolves once the flow is on `card` with nothing in flight (or fails after 15 s). */
function settleOn(flow: Flow, card: FlowState['card']): Promise<FlowState> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const s = flow.getSnapshot();
      if (s.card === card && s.pending === null) {
        clearTimeout(timer);
        unsubscribe();
        resolve(s);
      }
    };
    const timer = setTimeout(() => {
      unsubscribe();
      const s = flow.getSnapshot();
      reject(new Error(`expected ${card}, still on ${s.card} (error: ${s.error})`));
    }, 15_000);
    const unsubscribe = flow.subscribe(check);
    check();
  });
}

// An account to sign in to, made through the emulator's admin REST API.
const email = `firebaseui-${Date.now()}@example.com`;
const created = await fetch(
  `http://${host}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts`,
  {
    method: 'POST',
    headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'abc123' }),
  },
);
assert.equal(created.status, 200, await created.text());

const provider = createFirebaseProvider({
  config: { apiKey: 'fake-api-key', projectId, authDomain: `${projectId}.firebaseapp.com` },
  emulatorUrl: `http://${host}`,
  emailEnumerationProtection: false,
  federatedProviders: ['google.com', 'github.com'],
});
const navigated: string[] = [];
const flow = createFlow({
  provider,
  config: normalizeConfig(config, ORIGIN),
  url: `${ORIGIN}/login`,
  storage: createMemoryStorage(),
  navigate: (url) => navigated.push(url),
});
try {
  const chooser = await settleOn(flow, 'providerChooser');
  assert.equal(chooser.card, 'providerChooser');
  flow.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
  await settleOn(flow, 'emailEntry');
  flow.send({ type: 'SUBMIT_EMAIL', email });
  await settleOn(flow, 'passwordSignIn');
  flow.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
  const done = await settleOn(flow, 'signedIn');
  assert.equal(done.card === 'signedIn' ? done.result?.user.email : null, email);
  // FirebaseUI's callback ran with FirebaseUI's argument shape; its `false` kept the page.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.deepEqual(signedIn, [{ email, isNewUser: false, redirectUrl: `${ORIGIN}/account` }]);
  assert.deepEqual(navigated, []);
} finally {
  flow.dispose();
  await deleteApp(provider.auth.app);
}
console.log(`signed in as ${email} on the emulator through a FirebaseUI config`);

// A misspelt key, as a config read from JSON would have it (a literal would not compile).
const misspelt = JSON.parse('{"signInOptions":["email"],"signInSucessUrl":"/account"}') as WidgetConfigInput;
assert.throws(
  () => normalizeConfig(misspelt, ORIGIN),
  (error: unknown) =>
    error instanceof ConfigError &&
    error.option === 'signInSucessUrl' &&
    error.message.includes('`signInSucessUrl` is not an option'),
);
// FirebaseUI's callback name in a Doorway config: named with its path.
const mixed = { signInOptions: ['email'], callbacks: uiConfig.callbacks } as WidgetConfigInput;
assert.throws(
  () => normalizeConfig(mixed, ORIGIN),
  (error: unknown) =>
    error instanceof ConfigError && error.option === 'callbacks.signInSuccessWithAuthResult',
);
console.log('a misspelt key fails naming it: ok');
// firebase/auth keeps timers of its own after deleteApp.
process.exit(0);
