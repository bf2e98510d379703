/**
 * The admin routes over HTTP (admin.go), behind GoTrue's requireAdmin: the bearer must be a JWT of an admin
 * role (`service_role`, `supabase_admin`), such as the project's service-role key. The double serves
 * `DELETE /admin/users/{user_id}`; the rest of the admin API is in process only (`double.admin`).
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { GoTrueDoubleError, userNotFound } from '../errors.ts';
import { JWT_SECRET, verifyJwt } from '../jwt.ts';
import { json } from '../responses.ts';
import { endSession } from '../tokens.ts';
import type { UserRecord } from '../types.ts';
import { isObject } from '../util.ts';

/** GOTRUE_JWT_ADMIN_ROLES as GoTrue ships it. */
const ADMIN_ROLES = ['service_role', 'supabase_admin'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * requireAdmin: a bearer JWT of the double's signature whose `role` is an admin role. No bearer: 401
 * `no_authorization`; a token it cannot verify (or expired): 403 `bad_jwt`; another role (a user's access
 * token, the anon key): 403 `not_admin`.
 */
function requireAdmin(ctx: DoubleContext, request: Request): void {
  const header = request.headers.get('authorization') ?? '';
  const token = header.toLowerCase().startsWith('bearer ') ? header.slice(7) : '';
  if (token === '')
    throw new GoTrueDoubleError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  const claims = verifyJwt(token, JWT_SECRET);
  const expired = typeof claims?.exp === 'number' && claims.exp * 1000 < ctx.clock.now();
  if (claims === null || expired) {
    throw new GoTrueDoubleError(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature');
  }
  if (!ADMIN_ROLES.includes(String(claims.role))) {
    throw new GoTrueDoubleError(403, 'not_admin', 'User not allowed');
  }
}

/** loadUser: the user of the path's `user_id` (400 when it is not a UUID, 404 `user_not_found`). */
function loadUser(ctx: DoubleContext, userId: string): UserRecord {
  if (!UUID.test(userId)) throw new GoTrueDoubleError(400, 'validation_failed', 'user_id must be an UUID');
  const user = ctx.store.users.get(userId);
  if (!user) throw userNotFound();
  return user;
}

/** The body's `should_soft_delete` (an empty body: `false`). */
async function softDelete(request: Request): Promise<boolean> {
  const text = await request.text();
  if (text.trim() === '') return false;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new GoTrueDoubleError(400, 'bad_json', 'Could not read params');
  }
  return isObject(body) && body.should_soft_delete === true;
}

/**
 * DELETE /admin/users/{user_id} (adminUserDelete): removes the user with its identities, factors and
 * passkeys (rows of the user), and, as the database's cascades do, its sessions with their refresh tokens,
 * its flow states and its passkey challenges. Answers `{}`. A soft delete (`should_soft_delete: true`) is
 * not imitated: the double refuses it with 400 `validation_failed`.
 */
export async function adminDeleteUser(
  ctx: DoubleContext,
  request: Request,
  userId: string,
): Promise<Response> {
  requireAdmin(ctx, request);
  const user = loadUser(ctx, userId);
  if (await softDelete(request)) {
    throw new GoTrueDoubleError(400, 'validation_failed', 'The GoTrue double does not soft-delete users');
  }
  const { store } = ctx;
  for (const session of [...store.sessions.values()])
    if (session.userId === user.id) endSession(ctx, session.id);
  for (const [id, flow] of store.flowStates) if (flow.userId === user.id) store.flowStates.delete(id);
  for (const [id, challenge] of store.webauthnChallenges)
    if (challenge.userId === user.id) store.webauthnChallenges.delete(id);
  store.users.delete(user.id);
  return json({});
}
