/**
 * What the double remembers (GoTrue's tables, the IdP's codes, the outbox) and its plain-JSON snapshot.
 * @module
 */
import type {
  DoubleEmail,
  DoubleSms,
  FlowState,
  GoTrueDoubleState,
  IdpAction,
  IdpGrant,
  RefreshTokenRecord,
  SessionRecord,
  UserRecord,
  WebAuthnChallengeRecord,
} from './types.ts';

/** The double's state. */
export interface DoubleStore {
  users: Map<string, UserRecord>;
  sessions: Map<string, SessionRecord>;
  refreshTokens: Map<string, RefreshTokenRecord>;
  flowStates: Map<string, FlowState>;
  idpCodes: Map<string, IdpGrant>;
  idpQueue: IdpAction[];
  emails: DoubleEmail[];
  sms: DoubleSms[];
  webauthnChallenges: Map<string, WebAuthnChallengeRecord>;
}

/** An empty store, or one holding a copy of `state`. */
export function createStore(state?: GoTrueDoubleState): DoubleStore {
  const saved = state ? structuredClone(state) : undefined;
  return {
    // A snapshot from before MFA (or passkeys) has users without factors (or passkeys).
    users: new Map(
      (saved?.users as UserRecord[] | undefined)?.map((u) => [
        u.id,
        { ...u, factors: u.factors ?? [], passkeys: u.passkeys ?? [] },
      ]),
    ),
    sessions: new Map((saved?.sessions as SessionRecord[] | undefined)?.map((s) => [s.id, s])),
    refreshTokens: new Map(saved?.refreshTokens as [string, RefreshTokenRecord][] | undefined),
    flowStates: new Map((saved?.flowStates as FlowState[] | undefined)?.map((f) => [f.id, f])),
    idpCodes: new Map(saved?.idpCodes as [string, IdpGrant][] | undefined),
    idpQueue: [...((saved?.idpQueue ?? []) as IdpAction[])],
    emails: [...(saved?.emails ?? [])],
    sms: [...(saved?.sms ?? [])],
    webauthnChallenges: new Map(
      (saved?.webauthnChallenges as WebAuthnChallengeRecord[] | undefined)?.map((c) => [c.id, c]),
    ),
  };
}

/** The store as plain JSON at `time`. */
export function snapshotOf(store: DoubleStore, time: number): GoTrueDoubleState {
  return structuredClone({
    version: 1,
    time,
    users: [...store.users.values()],
    sessions: [...store.sessions.values()],
    refreshTokens: [...store.refreshTokens],
    flowStates: [...store.flowStates.values()],
    idpCodes: [...store.idpCodes],
    idpQueue: [...store.idpQueue],
    emails: store.emails,
    sms: store.sms,
    webauthnChallenges: [...store.webauthnChallenges.values()],
  });
}
