import type { ActionFunctionArgs } from '@remix-run/node';
import { hostConfig } from '../config.server.ts';
import { clientAddressOf } from '../load-context.ts';
import { sessionBackend } from '../services.server.ts';
import { auditOf, startSession } from '../session.server.ts';
import { requestThrottle, throttledRequest } from '../throttle.server.ts';

/**
 * `POST /session` with the ID token: sets the session cookie (origin-checked). Throttled per client: each
 * session minted is a costly request, each token refused a failure (429 past either limit).
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  throttledRequest(requestThrottle(context), { costly: true }, () =>
    startSession(request, sessionBackend(), hostConfig().allowedOrigins, auditOf(clientAddressOf(context))),
  );

export const loader = () => new Response('Method not allowed', { status: 405, headers: { allow: 'POST' } });
