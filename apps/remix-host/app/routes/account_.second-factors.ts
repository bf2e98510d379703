import type { ActionFunctionArgs } from '@remix-run/node';
import { accountFactors } from '../account-factors.server.ts';
import { hostConfig } from '../config.server.ts';
import { accountProvider, sessionBackend } from '../services.server.ts';
import { requestThrottle, throttledRequest } from '../throttle.server.ts';

/**
 * `POST /account/second-factors`: the account page's authenticator apps, run on the server (Supabase).
 * Throttled per client: a write is a costly request, a wrong code a failure.
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  throttledRequest(requestThrottle(context), { costly: true }, () =>
    accountFactors(request, sessionBackend(), hostConfig().allowedOrigins, accountProvider()),
  );

export const loader = () =>
  new Response('Method not allowed', {
    status: 405,
    headers: { allow: 'POST', 'cache-control': 'no-store' },
  });
