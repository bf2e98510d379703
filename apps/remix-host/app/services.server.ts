/**
 * The process's identity services, created on first use from {@link hostConfig} (`DOORWAY_PROVIDER`): the
 * adapter's server entry, for sessions and for the form path's provider (sign-in, and the action links on
 * `/action`).
 *
 * - Firebase: `@doorway/adapter-firebase/server` (firebase-admin session cookies).
 * - Supabase: `@doorway/adapter-supabase/server`. The session is the user's access token, verified with
 *   GoTrue on every protected request; GoTrue reads and revokes users only by their own token, so the
 *   session operations are bound to one request (`forRequest`): the token verified is the one revoked.
 *
 * Either form provider is wrapped by `hostFormProvider`: emailed URLs on the public origin, and the host's
 * email enumeration protection.
 *
 * Emailed URLs. The flow builds a link's continue URL from the page's URL, which on the server is the
 * request's, whose origin comes from the `Host` header: anyone can send `Host: evil.example` and have a
 * recovery or sign-in link for someone else's address point at their own server, where the code arrives.
 * So every URL put into an email comes from {@link emailOrigin}: `DOORWAY_PUBLIC_ORIGIN` when configured;
 * without it (development) the request's own origin only when its hostname is loopback (a link on a
 * visitor's own machine reaches nobody else), else `http://localhost:<PORT>`.
 * @module
 */
import { createFirebaseServer } from '@doorway/adapter-firebase/server';
import { createSupabaseServer } from '@doorway/adapter-supabase/server';
import type { AuthProvider } from '@doorway/auth-core';
import type { AuthServer, ServerAuthProvider, SessionBackend } from '@doorway/auth-core/server';
import type { OpenAccount } from './account-factors.server.ts';
import type { OpenPasskeys } from './account-passkeys.server.ts';
import { resetLinksToActionRoute } from './action-links.ts';
import type { MintBrowserToken } from './browser-sign-in.server.ts';
import { type HostConfig, hostConfig, publicConfig } from './config.server.ts';
import { withEnumerationProtection } from './enumeration.ts';
import {
  markPasskeySignIns,
  passkeyChallengeStore,
  passkeyHandler,
  passkeyRelyingParty,
  withPasskeySignIns,
} from './passkeys.server.ts';
import { ACTION_PATH } from './public-config.ts';

const LOOPBACK: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin every URL emailed on behalf of `request` is built from (see the module's comment). Never the
 * request's origin unless that is loopback or the configured public origin.
 * @example emailOrigin(new Request('http://evil.example/login'), { publicOrigin: null, port: 3000 })
 * // 'http://localhost:3000'
 */
export function emailOrigin(request: Request, config: Pick<HostConfig, 'publicOrigin' | 'port'>): string {
  if (config.publicOrigin !== null) return config.publicOrigin;
  const own = new URL(request.url);
  return LOOPBACK.has(own.hostname) ? own.origin : `http://localhost:${config.port}`;
}

/**
 * `url` moved from origin `from` to origin `to`, its path, query and fragment kept; a URL on another
 * origin (a configured absolute link URL) or no absolute URL at all is returned as it is.
 * @example onOrigin('http://evil.example/login?x=1', 'http://evil.example', 'https://app.example')
 * // 'https://app.example/login?x=1'
 */
export function onOrigin(url: string, from: string, to: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.origin !== from || from === to) return url;
  return `${to}${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/**
 * `provider` with the URL of every link it emails (email-link sign-in, password reset) that the request's
 * origin produced moved to `publicAt`. Other settings pass through.
 */
export function withLinksOn<P extends Pick<AuthProvider, 'sendSignInLinkToEmail' | 'sendPasswordResetEmail'>>(
  provider: P,
  requestOrigin: string,
  publicAt: string,
): P {
  const move = (url: string) => onOrigin(url, requestOrigin, publicAt);
  return {
    ...provider,
    sendSignInLinkToEmail: (email, settings) =>
      provider.sendSignInLinkToEmail(email, { ...settings, url: move(settings.url) }),
    sendPasswordResetEmail: (email, settings) =>
      provider.sendPasswordResetEmail(
        email,
        settings === undefined ? undefined : { ...settings, url: move(settings.url) },
      ),
  };
}

/**
 * The form path's provider of `request` as the host runs it: emailed links on {@link emailOrigin}, and,
 * with `DOORWAY_EMAIL_ENUMERATION_PROTECTION` on, no answer that tells an unknown address apart
 * ({@link withEnumerationProtection}).
 */
export function hostFormProvider(
  provider: ServerAuthProvider,
  request: Request,
  config: Pick<HostConfig, 'publicOrigin' | 'port' | 'emailEnumerationProtection'>,
): ServerAuthProvider {
  const linked = withLinksOn(provider, new URL(request.url).origin, emailOrigin(request, config));
  return config.emailEnumerationProtection ? withEnumerationProtection(linked) : linked;
}

/** The configured backend's server side, and how the form path's provider of a request is made. */
interface Services {
  server: AuthServer;
  /** The form path's provider for one request (REST calls to the identity provider). */
  formProvider(request: Request): ServerAuthProvider;
  /**
   * A token the browser's SDK signs in with as `uid` (Firebase: a firebase-admin custom token), for
   * `POST /account/browser-sign-in`; `null` where the provider has no such thing (Supabase).
   */
  browserSignInToken: MintBrowserToken | null;
  /**
   * The session of a cookie as a provider on the server, for `POST /account/second-factors`; `null` where
   * the browser's SDK runs the account page's factors itself (Firebase).
   */
  accountProvider: OpenAccount | null;
  /**
   * The passkeys of a cookie's session on the server, for `POST /account/passkeys`; `null` where the
   * browser's SDK holds the session (Firebase, whose passkeys are the host's `/passkeys` server).
   */
  accountPasskeys: OpenPasskeys | null;
  /** `/passkeys/*`: the passkey server (Firebase); it answers 404 where there is none (Supabase). */
  passkeys: (request: Request) => Promise<Response>;
  /** The session operations of one request. */
  sessions(): SessionBackend;
}

function firebaseServices(config: HostConfig): Services {
  // firebase-admin and the adapter's server read the emulator address from the environment only.
  if (config.emulatorHost !== null && !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = config.emulatorHost;
  }
  if (config.firebase === null) throw new Error('remix-host: no Firebase configuration');
  const { apiKey, projectId } = config.firebase;
  const server = createFirebaseServer({
    projectId,
    apiKey,
    emailEnumerationProtection: config.emailEnumerationProtection,
    federatedProviders: publicConfig(config).federatedProviders,
  });
  return {
    server,
    formProvider: (request) => hostFormProvider(server.formProvider(), request, config),
    // The token carries the session's sign-in time (`browser-sign-in.server.ts`).
    browserSignInToken: (uid, claims) => server.adminAuth.createCustomToken(uid, claims),
    accountProvider: null,
    accountPasskeys: null,
    passkeys: passkeyHandler({
      auth: markPasskeySignIns(server.adminAuth),
      relyingParty: passkeyRelyingParty(config),
      rpName: config.passkeyRpName,
      allowedOrigins: config.allowedOrigins,
      store: passkeyChallengeStore(),
    }),
    // A passkey sign-in's session says `passkey` (firebase-admin says `custom`).
    sessions: () => withPasskeySignIns(server.sessions()),
  };
}

function supabaseServices(config: HostConfig): Services {
  if (config.supabase === null) throw new Error('remix-host: no Supabase configuration');
  const { url, anonKey } = config.supabase;
  // One server per process: it keeps a verified reset link's recovery session until the form's POST.
  const server = createSupabaseServer({
    url,
    anonKey,
    ...(config.supabaseServiceRoleKey === null ? {} : { serviceRoleKey: config.supabaseServiceRoleKey }),
  });
  const federatedProviders = publicConfig(config).federatedProviders;
  return {
    server,
    browserSignInToken: null,
    passkeys: passkeyHandler({
      auth: null,
      relyingParty: null,
      rpName: config.passkeyRpName,
      allowedOrigins: config.allowedOrigins,
      store: passkeyChallengeStore(),
    }),
    sessions: () => server.sessions(),
    accountProvider: (cookie) => server.accountProvider(cookie, { federatedProviders }),
    accountPasskeys: (cookie) => server.accountPasskeys(cookie),
    formProvider(request) {
      // Emailed links land on the public origin's action route, never on the request's `Host`.
      const origin = emailOrigin(request, config);
      const provider = server.formProvider({
        federatedProviders,
        actionUrl: new URL(ACTION_PATH, origin).href,
      });
      return hostFormProvider(resetLinksToActionRoute(provider, origin), request, config);
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

/** The form path's provider for one request (`/login`, `/action`). */
export function formProvider(request: Request): ServerAuthProvider {
  return get().formProvider(request);
}

/** How the browser's SDK is signed in as a session's user, or `null` (see `Services`). */
export function browserSignInToken(): MintBrowserToken | null {
  return get().browserSignInToken;
}

/** The session of a cookie as a provider on the server, or `null` (see `Services.accountProvider`). */
export function accountProvider(): OpenAccount | null {
  return get().accountProvider;
}

/** `/passkeys/*`: the Firebase passkey server for this request's relying party (404 on Supabase). */
export function handlePasskeys(request: Request): Promise<Response> {
  return get().passkeys(request);
}

/** The passkeys of a cookie's session on the server, or `null` (see `Services.accountPasskeys`). */
export function passkeysOnServer(): OpenPasskeys | null {
  return get().accountPasskeys;
}
