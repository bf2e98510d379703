import { createSupabaseServer } from '@doorway/adapter-supabase/server';
import type { ActionFunctionArgs } from '@remix-run/node';
import { accountPasskeys, type OpenPasskeys } from '../account-passkeys.server.ts';
import { hostConfig } from '../config.server.ts';

let opener: OpenPasskeys | null | undefined;

/**
 * The passkeys of a cookie's session on the server (Supabase: GoTrue REST with its token); `null` on
 * Firebase, whose browser SDK holds the session and whose passkeys are the host's `/passkeys` server. This
 * server keeps nothing between requests, so it is its own (the process's other one keeps reset links).
 */
function openPasskeys(): OpenPasskeys | null {
  if (opener === undefined) {
    const { provider, supabase } = hostConfig();
    if (provider !== 'supabase' || supabase === null) opener = null;
    else {
      const server = createSupabaseServer({ url: supabase.url, anonKey: supabase.anonKey });
      opener = (cookie) => server.accountPasskeys(cookie);
    }
  }
  return opener;
}

/** `POST /account/passkeys`: the account page's passkeys, run on the server (Supabase). */
export const action = ({ request }: ActionFunctionArgs) =>
  accountPasskeys(request, hostConfig().allowedOrigins, openPasskeys());

export const loader = () =>
  new Response('Method not allowed', {
    status: 405,
    headers: { allow: 'POST', 'cache-control': 'no-store' },
  });
