/**
 * The process's Firebase services, created on first use from {@link hostConfig}: the adapter's server
 * entry (session cookies, action codes) and a server-side client for the reset emails the action pages
 * send without JavaScript.
 * @module
 */
import { createFirebaseProvider, type FirebaseProvider } from '@doorway/adapter-firebase';
import { createFirebaseServer, type FirebaseServer } from '@doorway/adapter-firebase/server';
import type { ActionDeps } from './action.server.ts';
import { hostConfig } from './config.server.ts';
import type { SessionBackend } from './session.server.ts';

interface Services {
  server: FirebaseServer;
  mailer: FirebaseProvider;
}

let services: Services | null = null;

function init(): Services {
  const config = hostConfig();
  // firebase-admin and the adapter's server read the emulator address from the environment only.
  if (config.emulatorHost !== null && !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = config.emulatorHost;
  }
  const { apiKey, projectId, authDomain } = config.firebase;
  return {
    server: createFirebaseServer({ projectId, apiKey }),
    mailer: createFirebaseProvider({
      config: { apiKey, projectId, authDomain },
      appName: 'doorway-host-mailer',
      ...(config.emulatorHost === null ? {} : { emulatorUrl: `http://${config.emulatorHost}` }),
    }),
  };
}

function get(): Services {
  services ??= init();
  return services;
}

/** Session cookies through firebase-admin. */
export function sessionBackend(): SessionBackend {
  return get().server;
}

/** What `/action` needs: a fresh action-code provider per request, the reset mailer, the origins. */
export function actionDeps(): ActionDeps {
  const { server, mailer } = get();
  return {
    provider: () => server.serverProvider(),
    sendPasswordResetEmail: (email, url) => mailer.sendPasswordResetEmail(email, { url }),
    allowedOrigins: hostConfig().allowedOrigins,
  };
}
