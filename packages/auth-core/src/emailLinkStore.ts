/**
 * The email-link session: what the device that asked for a sign-in link remembers (the email and any
 * pending credential), under a random id that the link carries, for {@link EMAIL_LINK_STORAGE_TTL_SECONDS}.
 * @module
 */
import { EMAIL_LINK_SESSION_PARAM, EMAIL_LINK_STORAGE_TTL_SECONDS } from './constants.ts';
import type { AuthCredential } from './provider.ts';

/** The subset of the Web Storage API the widget uses; inject `localStorage` or an in-memory map. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A remembered email-link request. */
export interface EmailLinkSession {
  sid: string;
  email: string;
  /** ms since epoch, from the injected clock. */
  createdAt: number;
  pendingCredential: AuthCredential | null;
  anonymousUid: string | null;
}

/** What the link itself says (query values Doorway put in the continue URL). */
export interface EmailLinkParams {
  sid: string | null;
  anonymousUid: string | null;
  forceSameDevice: boolean;
  /** Provider id of a pending credential to link after sign-in, if any. */
  linking: string | null;
}

/** The storage key of the email-link session. */
export const EMAIL_LINK_STORAGE_KEY = 'doorway.emailLink';
const AUID = 'doorway_auid';
const FSD = 'doorway_fsd';
const LNK = 'doorway_lnk';

/** A memory-only {@link KeyValueStorage} (for servers and tests). */
export function createMemoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
  };
}

/** Saves the session. Throws (whatever the storage throws) when web storage is unavailable. */
export function saveEmailLinkSession(storage: KeyValueStorage, session: EmailLinkSession): void {
  storage.setItem(EMAIL_LINK_STORAGE_KEY, JSON.stringify(session));
}

/** Reads the session; `null` when there is none or it is unreadable. Throws when storage is unavailable. */
export function loadEmailLinkSession(storage: KeyValueStorage): EmailLinkSession | null {
  const raw = storage.getItem(EMAIL_LINK_STORAGE_KEY);
  if (raw === null) return null;
  try {
    const v = JSON.parse(raw) as Partial<EmailLinkSession> | null;
    if (!v || typeof v.sid !== 'string' || typeof v.email !== 'string' || typeof v.createdAt !== 'number')
      return null;
    return {
      sid: v.sid,
      email: v.email,
      createdAt: v.createdAt,
      pendingCredential: v.pendingCredential ?? null,
      anonymousUid: typeof v.anonymousUid === 'string' ? v.anonymousUid : null,
    };
  } catch {
    return null;
  }
}

/** Forgets the session. */
export function clearEmailLinkSession(storage: KeyValueStorage): void {
  storage.removeItem(EMAIL_LINK_STORAGE_KEY);
}

/** Adds Doorway's session values to the continue URL that the emailed link opens. */
export function buildEmailLinkUrl(
  base: string,
  params: { sid: string; anonymousUid: string | null; forceSameDevice: boolean; linking: string | null },
): string {
  const url = new URL(base);
  for (const k of [EMAIL_LINK_SESSION_PARAM, AUID, FSD, LNK, 'mode', 'oobCode', 'apiKey', 'lang']) {
    url.searchParams.delete(k);
  }
  url.searchParams.set(EMAIL_LINK_SESSION_PARAM, params.sid);
  if (params.anonymousUid) url.searchParams.set(AUID, params.anonymousUid);
  if (params.forceSameDevice) url.searchParams.set(FSD, '1');
  if (params.linking) url.searchParams.set(LNK, params.linking);
  return url.href;
}

/**
 * Reads Doorway's values from a sign-in link, whether they are top-level (the provider redirected to the
 * continue URL) or nested in its `continueUrl` / `link` value.
 */
export function parseEmailLinkParams(link: string): EmailLinkParams {
  const empty: EmailLinkParams = { sid: null, anonymousUid: null, forceSameDevice: false, linking: null };
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return empty;
  }
  const candidates = [url.searchParams];
  for (const key of ['continueUrl', 'link', 'deep_link_id']) {
    const nested = url.searchParams.get(key);
    if (!nested) continue;
    try {
      candidates.push(new URL(nested).searchParams);
    } catch {
      // not a URL: nothing nested here
    }
  }
  const q = candidates.find((c) => c.has(EMAIL_LINK_SESSION_PARAM)) ?? candidates[0] ?? url.searchParams;
  return {
    sid: q.get(EMAIL_LINK_SESSION_PARAM),
    anonymousUid: q.get(AUID),
    forceSameDevice: q.get(FSD) === '1',
    linking: q.get(LNK),
  };
}

/** What opening an email link means on this device. */
export type EmailLinkCheck =
  /** Same device, within the lifetime: complete at once. */
  | { outcome: 'sameDevice'; email: string; pendingCredential: AuthCredential | null }
  /** Another device or browser: ask for the email (confirmation card). */
  | { outcome: 'otherDevice' }
  /** Another device, but the link must be completed where it was requested. */
  | { outcome: 'differentDevice' }
  /** The link was requested by a different anonymous user than the one signed in here. */
  | { outcome: 'anonymousUserMismatch' }
  /** The remembered session is older than its lifetime. */
  | { outcome: 'sessionEnded' };

/**
 * Judges an email link against the remembered session. Pure: `now` is the injected clock's time.
 * @param currentUid the uid of the user signed in on this device, if any
 */
export function assessEmailLink(
  link: string,
  session: EmailLinkSession | null,
  now: number,
  currentUid: string | null,
): EmailLinkCheck {
  const params = parseEmailLinkParams(link);
  const same = session !== null && params.sid !== null && session.sid === params.sid;
  if (params.anonymousUid !== null && params.anonymousUid !== currentUid) {
    return same || !params.forceSameDevice
      ? { outcome: 'anonymousUserMismatch' }
      : { outcome: 'differentDevice' };
  }
  if (!same) {
    return params.forceSameDevice || params.linking !== null
      ? { outcome: 'differentDevice' }
      : { outcome: 'otherDevice' };
  }
  if (now - session.createdAt > EMAIL_LINK_STORAGE_TTL_SECONDS * 1000) return { outcome: 'sessionEnded' };
  return { outcome: 'sameDevice', email: session.email, pendingCredential: session.pendingCredential };
}
