/**
 * The outbox: what the backend "sent", and its look-ups.
 * @module
 */
import { accountEmail } from '@doorway/auth-core';
import type { FakeOutbox } from './types.ts';
import { findLast, normalizePhone } from './util.ts';
import { admin, type World } from './world.ts';

/** `backend.outbox` over the world's live lists. Emails compare as accounts do. */
export function createOutbox(world: World): FakeOutbox {
  const { emails, sms } = world;
  return {
    emails,
    sms,
    lastEmail: (to, kind) => {
      const address = accountEmail(to);
      return findLast(
        emails,
        (e) => accountEmail(e.to) === address && (kind === undefined || e.kind === kind),
      );
    },
    lastSms: (to) => {
      const phone = normalizePhone(to) ?? to;
      return findLast(sms, (s) => s.to === phone);
    },
    clear: () =>
      admin(world, () => {
        emails.length = 0;
        sms.length = 0;
      }),
  };
}
