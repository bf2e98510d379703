import type { ActionFunctionArgs } from '@remix-run/node';
import { browserSignIn } from '../browser-sign-in.server.ts';
import { hostConfig } from '../config.server.ts';
import { clientAddressOf } from '../load-context.ts';
import { browserSignInToken, sessionBackend } from '../services.server.ts';
import { auditOf } from '../session.server.ts';
import { requestThrottle, throttledRequest } from '../throttle.server.ts';

/** `POST /account/browser-sign-in`: a token the browser's SDK signs in with as the session's user (throttled). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  throttledRequest(requestThrottle(context), { costly: true }, () =>
    browserSignIn(
      request,
      sessionBackend(),
      hostConfig().allowedOrigins,
      browserSignInToken(),
      auditOf(clientAddressOf(context)),
    ),
  );

export const loader = () =>
  new Response('Method not allowed', {
    status: 405,
    headers: { allow: 'POST', 'cache-control': 'no-store' },
  });
