/**
 * What the playground's Supabase mode (`supabaseWorld.ts`) and the GoTrue TEST DOUBLE the dev and preview
 * servers serve for it (`../gotrueDouble.ts`) agree on: where the double answers, and the users a new
 * world starts with. No imports: the server's setup reads it too.
 * @module
 */

/** Where world `<id>`'s double answers: `<DOUBLE_PATH>/<id>/auth/v1/*` (GoTrue's API), `<DOUBLE_PATH>/<id>`. */
export const DOUBLE_PATH = '/__gotrue';

/** Users a new Supabase world starts with. */
export const SUPABASE_SEED_USERS = [
  { email: 'ada@example.com', password: 'secret123', name: 'Ada Lovelace' },
] as const;

/** An email in a world's outbox, as `GET <DOUBLE_PATH>/<id>` lists it. */
export interface OutboxEmail {
  to: string;
  /** GoTrue's verification type of its token (`magiclink`, `signup`, `recovery`, …). */
  type: string;
  /** The first link in it. */
  link: string | null;
  tokenHash: string | null;
  sentAt: number;
}

/** A text message in a world's outbox. */
export interface OutboxSms {
  to: string;
  otp: string;
  sentAt: number;
}

/** What `GET <DOUBLE_PATH>/<id>` answers: the world's anon key and its outbox, oldest first. */
export interface DoubleView {
  anonKey: string;
  emails: OutboxEmail[];
  sms: OutboxSms[];
}
