import type { ActionFunctionArgs } from '@remix-run/node';
import { hostConfig } from '../config.server.ts';
import { sessionBackend } from '../services.server.ts';
import { startSession } from '../session.server.ts';

/** `POST /session` with the ID token: sets the session cookie (origin-checked). */
export const action = ({ request }: ActionFunctionArgs) =>
  startSession(request, sessionBackend(), hostConfig().allowedOrigins);

export const loader = () => new Response('Method not allowed', { status: 405, headers: { allow: 'POST' } });
