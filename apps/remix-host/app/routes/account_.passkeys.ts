import type { ActionFunctionArgs } from '@remix-run/node';
import { accountPasskeys } from '../account-passkeys.server.ts';
import { hostConfig } from '../config.server.ts';
import { passkeysOnServer, sessionBackend } from '../services.server.ts';
import { requestThrottle, throttledRequest } from '../throttle.server.ts';

/** `POST /account/passkeys`: the account page's passkeys, run on the server (Supabase; throttled). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  throttledRequest(requestThrottle(context), { costly: true }, () =>
    accountPasskeys(request, hostConfig().allowedOrigins, passkeysOnServer(), sessionBackend()),
  );

export const loader = () =>
  new Response('Method not allowed', {
    status: 405,
    headers: { allow: 'POST', 'cache-control': 'no-store' },
  });
