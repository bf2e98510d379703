/**
 * DELETE /user/identities/{identity_id} (identity.go's DeleteIdentity): unlinks one of the signed-in user's
 * identities, never the last one (`single_identity_not_deletable`). Behind SECURITY_MANUAL_LINKING_ENABLED,
 * like linking.
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { GoTrueDoubleError, manualLinkingDisabled } from '../errors.ts';
import { json } from '../responses.ts';
import { authenticate } from '../tokens.ts';
import type { UserRecord } from '../types.ts';
import { findByEmail, updateProviders } from '../users.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * User.UpdateUserEmailFromIdentities: when no identity left holds the user's address, the address becomes
 * the one of the identity signed in with last (confirmed as that identity says); another account's address
 * is a conflict.
 */
function emailFromIdentities(ctx: DoubleContext, user: UserRecord): void {
  if (user.identities.some((i) => i.identityData.email === user.email)) return;
  const latest = [...user.identities]
    .filter((i) => typeof i.identityData.email === 'string' && i.identityData.email !== '')
    .sort((a, b) => b.lastSignInAt - a.lastSignInAt)[0];
  const email = typeof latest?.identityData.email === 'string' ? latest.identityData.email.toLowerCase() : '';
  const owner = email === '' ? undefined : findByEmail(ctx, email);
  if (owner !== undefined && owner.id !== user.id) {
    throw new GoTrueDoubleError(
      422,
      'email_conflict_identity_not_deletable',
      'Unable to unlink identity due to email conflict',
    );
  }
  user.email = email;
  user.emailConfirmedAt = latest?.identityData.email_verified === true ? ctx.clock.now() : null;
}

/** DELETE /user/identities/{identity_id}. */
export function deleteIdentity(ctx: DoubleContext, request: Request, identityId: string): Response {
  const { user } = authenticate(ctx, request);
  if (!ctx.config.manualLinking) throw manualLinkingDisabled();
  if (!UUID.test(identityId))
    throw new GoTrueDoubleError(404, 'validation_failed', 'identity_id must be an UUID');
  if (user.identities.length <= 1) {
    throw new GoTrueDoubleError(
      422,
      'single_identity_not_deletable',
      'User must have at least 1 identity after unlinking',
    );
  }
  const identity = user.identities.find((i) => i.identityId === identityId);
  if (identity === undefined)
    throw new GoTrueDoubleError(422, 'identity_not_found', "Identity doesn't exist");
  const before = { email: user.email, emailConfirmedAt: user.emailConfirmedAt };
  user.identities = user.identities.filter((i) => i !== identity);
  if (identity.provider === 'phone') {
    user.phone = '';
    user.phoneConfirmedAt = null;
  } else {
    try {
      emailFromIdentities(ctx, user);
    } catch (error) {
      // The transaction rolls back: the identity stays.
      user.identities.push(identity);
      Object.assign(user, before);
      throw error;
    }
  }
  updateProviders(user);
  user.updatedAt = ctx.clock.now();
  return json({});
}
