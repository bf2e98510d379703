/**
 * Sessions: the current user of a client session, and signing out.
 * @module
 */
import type { AuthUser } from '@doorway/auth-core';
import { signedInRow, toAuthUser } from './users.ts';
import type { Session, World } from './world.ts';

function sameUser(a: AuthUser, b: AuthUser): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `getCurrentUser`: the same object while the user's data is unchanged (callers compare by identity). */
export function getCurrentUser(world: World, s: Session): AuthUser | null {
  const row = signedInRow(world, s);
  if (row === undefined) {
    s.lastUser = null;
    return null;
  }
  const user = toAuthUser(row);
  if (s.lastUser === null || !sameUser(s.lastUser, user)) s.lastUser = user;
  return s.lastUser;
}

/** `signOut`. */
export function signOut(s: Session): void {
  s.currentUid = null;
}
