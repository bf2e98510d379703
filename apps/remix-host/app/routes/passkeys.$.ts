import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handlePasskeys } from '../services.server.ts';

/**
 * `/passkeys/*`: the Firebase passkey server's WebAuthn routes (options and verification of a registration
 * or a sign-in, the list, removal), see `passkeys.server.ts`. 404 on Supabase.
 */
export const loader = ({ request }: LoaderFunctionArgs) => handlePasskeys(request);

export const action = ({ request }: ActionFunctionArgs) => handlePasskeys(request);
