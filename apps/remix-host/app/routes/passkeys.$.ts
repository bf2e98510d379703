import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handlePasskeys } from '../services.server.ts';
import { passkeyGuard, requestThrottle, throttledRequest } from '../throttle.server.ts';

/**
 * `/passkeys/*`: the Firebase passkey server's WebAuthn routes (options and verification of a registration
 * or a sign-in, the list, removal), see `passkeys.server.ts`. 404 on Supabase. Throttled per client: each
 * challenge is a costly request, each refused assertion or token a failure (`passkeyGuard`).
 */
export const loader = ({ request, context }: LoaderFunctionArgs) =>
  throttledRequest(requestThrottle(context), passkeyGuard(request), () => handlePasskeys(request));

export const action = ({ request, context }: ActionFunctionArgs) =>
  throttledRequest(requestThrottle(context), passkeyGuard(request), () => handlePasskeys(request));
