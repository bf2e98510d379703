import { describe, expect, it } from 'vitest';
import {
  assessEmailLink,
  buildEmailLinkUrl,
  clearEmailLinkSession,
  createMemoryStorage,
  EMAIL_LINK_STORAGE_KEY,
  loadEmailLinkSession,
  parseEmailLinkParams,
  saveEmailLinkSession,
} from '../src/emailLinkStore.ts';

const HOUR = 3600 * 1000;
const session = {
  sid: 's1',
  email: 'ann@example.com',
  createdAt: 1_000,
  pendingCredential: null,
  anonymousUid: null,
};

function link(params: Parameters<typeof buildEmailLinkUrl>[1]) {
  return `${buildEmailLinkUrl('https://app.example/login?x=1', params)}&mode=signIn&oobCode=abc`;
}

describe('email-link store', () => {
  it('round-trips a session and survives junk in storage', () => {
    const storage = createMemoryStorage();
    expect(loadEmailLinkSession(storage)).toBeNull();
    saveEmailLinkSession(storage, session);
    expect(loadEmailLinkSession(storage)).toEqual(session);
    storage.setItem(EMAIL_LINK_STORAGE_KEY, '{not json');
    expect(loadEmailLinkSession(storage)).toBeNull();
    storage.setItem(EMAIL_LINK_STORAGE_KEY, '{"sid":1}');
    expect(loadEmailLinkSession(storage)).toBeNull();
    clearEmailLinkSession(storage);
    expect(storage.getItem(EMAIL_LINK_STORAGE_KEY)).toBeNull();
  });

  it('puts its values in the continue URL and reads them back, top-level or nested', () => {
    const url = buildEmailLinkUrl('https://app.example/login?x=1&mode=signIn', {
      sid: 's1',
      anonymousUid: 'anon',
      forceSameDevice: true,
      linking: 'google.com',
    });
    expect(new URL(url).searchParams.get('x')).toBe('1');
    expect(new URL(url).searchParams.get('mode')).toBeNull();
    const expected = { sid: 's1', anonymousUid: 'anon', forceSameDevice: true, linking: 'google.com' };
    expect(parseEmailLinkParams(url)).toEqual(expected);
    const hosted = `https://auth.example/action?mode=signIn&oobCode=abc&continueUrl=${encodeURIComponent(url)}`;
    expect(parseEmailLinkParams(hosted)).toEqual(expected);
    expect(parseEmailLinkParams('not a url').sid).toBeNull();
  });

  it('same device within 3600 s completes; after it the session has ended', () => {
    const l = link({ sid: 's1', anonymousUid: null, forceSameDevice: false, linking: null });
    expect(assessEmailLink(l, session, session.createdAt + HOUR, null)).toEqual({
      outcome: 'sameDevice',
      email: 'ann@example.com',
      pendingCredential: null,
    });
    expect(assessEmailLink(l, session, session.createdAt + HOUR + 1, null)).toEqual({
      outcome: 'sessionEnded',
    });
  });

  it('another device asks for the email, unless the link is forced to its device or carries a credential', () => {
    const plain = link({ sid: 's1', anonymousUid: null, forceSameDevice: false, linking: null });
    expect(assessEmailLink(plain, null, 0, null)).toEqual({ outcome: 'otherDevice' });
    expect(assessEmailLink(plain, { ...session, sid: 'other' }, 0, null)).toEqual({ outcome: 'otherDevice' });
    const forced = link({ sid: 's1', anonymousUid: null, forceSameDevice: true, linking: null });
    expect(assessEmailLink(forced, null, 0, null)).toEqual({ outcome: 'differentDevice' });
    const linking = link({ sid: 's1', anonymousUid: null, forceSameDevice: false, linking: 'google.com' });
    expect(assessEmailLink(linking, null, 0, null)).toEqual({ outcome: 'differentDevice' });
  });

  it('a link started by another anonymous user is an anonymous-user mismatch', () => {
    const l = link({ sid: 's1', anonymousUid: 'anon1', forceSameDevice: false, linking: null });
    expect(assessEmailLink(l, session, 0, 'anon2')).toEqual({ outcome: 'anonymousUserMismatch' });
    expect(assessEmailLink(l, session, 0, null)).toEqual({ outcome: 'anonymousUserMismatch' });
    expect(assessEmailLink(l, { ...session, anonymousUid: 'anon1' }, 0, 'anon1').outcome).toBe('sameDevice');
  });
});
