import type { ActionFunctionArgs } from '@remix-run/node';
import { accountPasskeys } from '../account-passkeys.server.ts';
import { hostConfig } from '../config.server.ts';
import { passkeysOnServer } from '../services.server.ts';

/** `POST /account/passkeys`: the account page's passkeys, run on the server (Supabase). */
export const action = ({ request }: ActionFunctionArgs) =>
  accountPasskeys(request, hostConfig().allowedOrigins, passkeysOnServer());

export const loader = () =>
  new Response('Method not allowed', {
    status: 405,
    headers: { allow: 'POST', 'cache-control': 'no-store' },
  });
