/**
 * A passkey as GoTrue lists it (`GET /passkeys`, the answer of a registration or a rename), and as Doorway
 * lists it: shared by the browser provider and the server's account passkeys.
 * @module
 */
import type { PasskeyInfo } from '@doorway/auth-core';

/** A passkey as GoTrue answers it. */
export interface GoTruePasskey {
  id: string;
  friendly_name?: string;
  created_at: string;
  last_used_at?: string | null;
}

/** The longest name a passkey is given (a longer one is cut). */
export const PASSKEY_NAME_MAX = 120;

/**
 * A passkey as Doorway lists it. GoTrue's id is a UUID (not the credential id), and GoTrue does not say
 * whether a passkey is backed up (`backedUp` is `false`).
 */
export function passkeyInfo(p: GoTruePasskey): PasskeyInfo {
  return {
    id: p.id,
    name: p.friendly_name ?? null,
    createdAt: Date.parse(p.created_at),
    lastUsedAt: p.last_used_at == null ? null : Date.parse(p.last_used_at),
    backedUp: false,
  };
}

/** Whether a GoTrue answer is a passkey. */
export function isGoTruePasskey(value: unknown): value is GoTruePasskey {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.created_at === 'string';
}
