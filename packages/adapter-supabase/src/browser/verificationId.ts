/**
 * The verification id of an SMS code: the number, the kind of code sent and when, in a string the flow
 * keeps (Supabase has no verification id of its own).
 * @module
 */

// GoTrue accepts any 2–15 digits; the widget needs a real international number with its `+`.
export const E164 = /^\+[1-9]\d{6,14}$/;

/** What a verification id carries. */
export interface SmsVerification {
  phone: string;
  /** `sms` for a sign-in code, `phone_change` for an anonymous user's upgrade. */
  type: 'sms' | 'phone_change';
  /** Whether sending the code created the account. */
  isNew: boolean;
  /** When the code was sent (the clock's ms). */
  sentAt: number;
}

/** The verification id of a sent code. */
export function encodeVerification(v: SmsVerification): string {
  return `${v.type}:${v.isNew ? 1 : 0}:${v.sentAt}:${v.phone}`;
}

/** What a verification id says, or `null` when it is not one of ours. */
export function decodeVerification(id: string): SmsVerification | null {
  const [type, isNew, sentAt, phone] = id.split(':');
  if ((type !== 'sms' && type !== 'phone_change') || !phone || !E164.test(phone)) return null;
  const at = Number(sentAt);
  return Number.isFinite(at) ? { type, isNew: isNew === '1', sentAt: at, phone } : null;
}
