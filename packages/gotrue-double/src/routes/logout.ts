/**
 * POST /logout (logout.go): ends this session (`scope=local`), the user's others (`others`) or all of the
 * user's sessions (`global`, the default), with their refresh tokens.
 * @module
 */
import { HttpResponse } from 'msw';
import type { DoubleContext } from '../context.ts';
import { validationFailed } from '../errors.ts';
import { authenticate, endSession } from '../tokens.ts';

/** POST /logout. */
export function logout(ctx: DoubleContext, request: Request, q: URLSearchParams): Response {
  const { user, sessionId } = authenticate(ctx, request);
  const scope = q.get('scope') || 'global';
  if (!['global', 'local', 'others'].includes(scope)) {
    throw validationFailed(`Unsupported logout scope ${JSON.stringify(scope)}`);
  }
  for (const s of [...ctx.store.sessions.values()]) {
    const drop =
      scope === 'local'
        ? s.id === sessionId
        : scope === 'others'
          ? s.userId === user.id && s.id !== sessionId
          : s.userId === user.id;
    if (drop) endSession(ctx, s.id);
  }
  return new HttpResponse(null, { status: 204 });
}
