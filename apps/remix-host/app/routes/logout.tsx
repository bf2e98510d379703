import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { hostConfig } from '../config.server.ts';
import { sessionBackend } from '../services.server.ts';
import { endSession } from '../session.server.ts';

/** `POST /logout`: revokes the sessions, clears the cookie, then the sign-out card (origin-checked). */
export const action = ({ request }: ActionFunctionArgs) =>
  endSession(request, sessionBackend(), hostConfig().allowedOrigins);

// Signing out changes state: only a POST does it.
export const loader = () => redirect('/account');
