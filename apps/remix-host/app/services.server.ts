/**
 * The process's identity services, created on first use from {@link hostConfig} (`DOORWAY_PROVIDER`): the
 * adapter's server entry (sessions, action codes) and a server-side client for the reset emails the
 * action pages send without JavaScript.
 *
 * - Firebase: `@doorway/adapter-firebase/server` (firebase-admin session cookies).
 * - Supabase: `@doorway/adapter-supabase/server`. The session is the user's access token, verified with
 *   GoTrue on every protected request; GoTrue reads and revokes users only by their own token, so the
 *   session operations are bound to one request (`forRequest`): the token verified is the one revoked.
 * @module
 */
import { createFirebaseProvider } from '@doorway/adapter-firebase';
import { createFirebaseServer } from '@doorway/adapter-firebase/server';
import { createSupabaseProvider } from '@doorway/adapter-supabase';
import { createSupabaseServer, SUPABASE_ACTION_MODES } from '@doorway/adapter-supabase/server';
import type { ActionMode } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import type { ActionDeps } from './action.server.ts';
import { resetLinksToActionRoute } from './action-links.ts';
import { type HostConfig, hostConfig, publicConfig } from './config.server.ts';
import { ACTION_PATH } from './public-config.ts';
import type { SessionBackend } from './session.server.ts';

interface Services {
  /** Session operations for one request. */
  sessions(): SessionBackend;
  /** A fresh action-code provider for one request. */
  actionProvider: ActionDeps['provider'];
  /** The action modes the provider has links for (`undefined`: all). */
  actionCodes?: readonly ActionMode[];
  sendPasswordResetEmail: ActionDeps['sendPasswordResetEmail'];
  /** The sign-in form path's provider for one request (REST calls to the identity provider). */
  formProvider(request: Request): ServerAuthProvider;
}

function firebaseServices(config: HostConfig): Services {
  // firebase-admin and the adapter's server read the emulator address from the environment only.
  if (config.emulatorHost !== null && !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = config.emulatorHost;
  }
  if (config.firebase === null) throw new Error('remix-host: no Firebase configuration');
  const { apiKey, projectId, authDomain } = config.firebase;
  const server = createFirebaseServer({
    projectId,
    apiKey,
    emailEnumerationProtection: config.emailEnumerationProtection,
    federatedProviders: publicConfig(config).federatedProviders,
  });
  const mailer = createFirebaseProvider({
    config: { apiKey, projectId, authDomain },
    appName: 'doorway-host-mailer',
    ...(config.emulatorHost === null ? {} : { emulatorUrl: `http://${config.emulatorHost}` }),
  });
  return {
    sessions: () => server,
    actionProvider: () => server.serverProvider(),
    sendPasswordResetEmail: (email, url) => mailer.sendPasswordResetEmail(email, { url }),
    formProvider: () => server.formProvider(),
  };
}

function supabaseServices(config: HostConfig): Services {
  if (config.supabase === null) throw new Error('remix-host: no Supabase configuration');
  const { url, anonKey } = config.supabase;
  const server = createSupabaseServer({ url, anonKey });
  // Sends recovery emails only (the JavaScript-free cards); no session is ever kept on it.
  const mailer = createSupabaseProvider({ url, anonKey });
  return {
    sessions: () => server.forRequest(),
    actionProvider: () => server.serverProvider(),
    actionCodes: SUPABASE_ACTION_MODES,
    // Supabase's link lands on the URL it is given: the action route, which continues to `continueUrl`.
    sendPasswordResetEmail(email, continueUrl) {
      const target = new URL(ACTION_PATH, continueUrl);
      target.searchParams.set('continueUrl', continueUrl);
      return mailer.sendPasswordResetEmail(email, { url: target.href });
    },
    formProvider(request) {
      const { origin } = new URL(request.url);
      const provider = server.formProvider({
        federatedProviders: publicConfig(config).federatedProviders,
        actionUrl: new URL(ACTION_PATH, origin).href,
      });
      return resetLinksToActionRoute(provider, origin);
    },
  };
}

let services: Services | null = null;

function get(): Services {
  if (services === null) {
    const config = hostConfig();
    services = config.provider === 'supabase' ? supabaseServices(config) : firebaseServices(config);
  }
  return services;
}

/** The session operations of one request (call once per request). */
export function sessionBackend(): SessionBackend {
  return get().sessions();
}

/** The sign-in form path's provider for one request. */
export function formProvider(request: Request): ServerAuthProvider {
  return get().formProvider(request);
}

/** What `/action` needs: a fresh action-code provider per request, the reset mailer, the origins. */
export function actionDeps(): ActionDeps {
  const { actionProvider, actionCodes, sendPasswordResetEmail } = get();
  return {
    provider: actionProvider,
    sendPasswordResetEmail,
    allowedOrigins: hostConfig().allowedOrigins,
    ...(actionCodes === undefined ? {} : { actionCodes }),
  };
}
