/**
 * A TEST DOUBLE of the Supabase Auth (GoTrue) REST API, in memory, served through msw. It is not GoTrue: it
 * follows the request and response shapes that supabase-js 2.108 (`@supabase/auth-js`) sends and parses, and
 * the behaviour of supabase/auth's handlers (signup.go, otp.go, magic_link.go, verify.go, token.go, user.go,
 * external.go, identity.go, anonymous.go, mfa.go, passkey_*.go) as far as the adapter depends on it. Everything
 * the adapter's tests prove, they prove against this double only; see the README's "Checked against the double
 * only".
 *
 * What it has: users, identities, sessions and refresh tokens (HS256 JWTs), email/SMS one-time tokens stored as
 * GoTrue stores them (sha224 of address + OTP, `pkce_` prefix in PKCE flows), PKCE flow states, rendered
 * emails from configurable templates (GoTrue's defaults unless told), an outbox of emails and SMS, a fake
 * OAuth/OIDC IdP, MFA factors (TOTP and phone) and sessions at aal1 / aal2, passkeys (WebAuthn challenges and
 * credentials), an admin side (create users, generate links, ban; over HTTP, `DELETE /admin/users/{id}` with the
 * service-role key), a simulated clock and fault switches.
 * @module
 */
import { http, type RequestHandler } from 'msw';
import { adminOf } from './admin.ts';
import { doubleFetch, follow } from './browser.ts';
import { createContext, type DoubleContext } from './context.ts';
import { idpAuthorize, idpOf } from './idp.ts';
import { outboxOf } from './mailer.ts';
import { redirect } from './responses.ts';
import { handle } from './router.ts';
import { settingsJson } from './routes/settings.ts';
import { snapshotOf } from './store.ts';
import type { DoubleError, GoTrueDouble, GoTrueDoubleOptions } from './types.ts';

/** The fault switches tests flip. */
function faultsOf(ctx: DoubleContext): GoTrueDouble['faults'] {
  return {
    get network() {
      return ctx.faults.network;
    },
    set network(on: boolean) {
      ctx.faults.network = on;
    },
    get serverError() {
      return ctx.faults.serverError;
    },
    set serverError(on: boolean) {
      ctx.faults.serverError = on;
    },
    failNext(route: string, error: DoubleError) {
      ctx.failures.push({ route, error });
    },
  };
}

/** Creates a fresh GoTrue double. Register `double.handlers` with an msw server. */
export function createGoTrueDouble(options: GoTrueDoubleOptions = {}): GoTrueDouble {
  const ctx = createContext(options);
  const handlers: RequestHandler[] = [
    http.all(`${ctx.authUrl}/*`, ({ request }) => handle(ctx, request)),
    http.get(`${ctx.idpUrl}/*`, ({ request }) => redirect(idpAuthorize(ctx, new URL(request.url)))),
  ];
  return {
    projectUrl: ctx.projectUrl,
    anonKey: ctx.anonKey,
    serviceRoleKey: ctx.serviceRoleKey,
    authUrl: ctx.authUrl,
    handlers,
    requests: ctx.requests,
    clock: { now: ctx.clock.now, advance: ctx.clock.advance },
    faults: faultsOf(ctx),
    outbox: outboxOf(ctx),
    idp: idpOf(ctx),
    follow: (url) => follow(ctx, url),
    fetch: (input, init) => doubleFetch(ctx, input, init),
    snapshot: () => snapshotOf(ctx.store, ctx.clock.now()),
    admin: adminOf(ctx),
    settings: () => settingsJson(ctx),
  };
}
