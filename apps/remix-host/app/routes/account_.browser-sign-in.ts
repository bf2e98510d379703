import type { ActionFunctionArgs } from '@remix-run/node';
import { browserSignIn } from '../browser-sign-in.server.ts';
import { hostConfig } from '../config.server.ts';
import { browserSignInToken, sessionBackend } from '../services.server.ts';

/** `POST /account/browser-sign-in`: a token the browser's SDK signs in with as the session's user. */
export const action = ({ request }: ActionFunctionArgs) =>
  browserSignIn(request, sessionBackend(), hostConfig().allowedOrigins, browserSignInToken());

export const loader = () =>
  new Response('Method not allowed', {
    status: 405,
    headers: { allow: 'POST', 'cache-control': 'no-store' },
  });
