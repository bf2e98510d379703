/**
 * What the host adds to the form path's provider of a request: emailed URLs on the public origin, and its
 * own email enumeration protection.
 *
 * Emailed URLs. The flow builds a link's continue URL from the page's URL, which on the server is the
 * request's, whose origin comes from the `Host` header: anyone can send `Host: evil.example` and have a
 * recovery or sign-in link for someone else's address point at their own server, where the code arrives.
 * So every URL put into an email comes from {@link emailOrigin}: `DOORWAY_PUBLIC_ORIGIN` when configured;
 * without it (development) the request's own origin only when its hostname is loopback (a link on a
 * visitor's own machine reaches nobody else), else `http://localhost:<PORT>`.
 * @module
 */
import type { AuthProvider } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import type { HostConfig } from './config.server.ts';
import { withEnumerationProtection } from './enumeration.ts';

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
