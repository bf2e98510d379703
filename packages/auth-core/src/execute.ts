/**
 * The runner's provider calls: what each {@link ProviderOp} does against the provider, storage and clock.
 * Part of the engine the widget loads after its first card (`FlowEngine`), with `transition`.
 * @module
 */
import { handleActionCode } from './action.ts';
import {
  assessEmailLink,
  buildEmailLinkUrl,
  clearEmailLinkSession,
  type KeyValueStorage,
  loadEmailLinkSession,
  saveEmailLinkSession,
} from './emailLinkStore.ts';
import { AuthError } from './errors.ts';
import type { ProviderOp } from './ops.ts';
import type { AuthCredential, AuthProvider, SecondFactorOperations, SignInResult } from './provider.ts';
import { type FlowRuntime, providerOf, REDIRECT_KEY, readRedirectState } from './runtime.ts';
import type { ProviderLoaded } from './steps/step.ts';

function guardStorage<T>(rt: FlowRuntime, fn: (s: KeyValueStorage) => T): T {
  if (!rt.storage) throw new AuthError('web-storage-unsupported');
  try {
    return fn(rt.storage);
  } catch {
    throw new AuthError('web-storage-unsupported');
  }
}

async function linkPending(
  p: AuthProvider,
  result: SignInResult | null,
  credential: AuthCredential | null,
): Promise<SignInResult | null> {
  if (!result || !credential) return result;
  return p.linkWithCredential(credential);
}

/** The provider's second factors, or `operation-not-allowed` when it has none. */
function secondFactorsOf(p: AuthProvider): SecondFactorOperations {
  if (!p.secondFactors) throw new AuthError('operation-not-allowed');
  return p.secondFactors;
}

type SecondFactorOp = Extract<
  ProviderOp,
  { kind: 'startSecondFactor' | 'finishSecondFactor' | 'cancelSecondFactor' }
>;

const SECOND_FACTOR_OPS: ReadonlySet<string> = new Set([
  'startSecondFactor',
  'finishSecondFactor',
  'cancelSecondFactor',
]);
const isSecondFactorOp = (op: ProviderOp): op is SecondFactorOp => SECOND_FACTOR_OPS.has(op.kind);

/** A step of the second-factor challenge. */
async function secondFactorStep(op: SecondFactorOp, p: AuthProvider, rt: FlowRuntime): Promise<unknown> {
  switch (op.kind) {
    case 'startSecondFactor': {
      if (!op.sms) return secondFactorsOf(p).startSignIn(op.challenge, op.factorUid);
      const verifier = op.verifier ?? rt.lastVerifier;
      if (!verifier) throw new AuthError('captcha-check-failed');
      rt.lastVerifier = verifier;
      return secondFactorsOf(p).startSignIn(op.challenge, op.factorUid, verifier);
    }
    case 'finishSecondFactor':
      return secondFactorsOf(p).finishSignIn(op.challenge, op.verificationId, op.code);
    case 'cancelSecondFactor':
      try {
        await p.secondFactors?.cancelSignIn(op.challenge);
      } catch {
        // Never in the way of starting over: the pending sign-in expires on its own.
      }
      return undefined;
  }
}

/**
 * Performs one provider call; resolves with what `transition` expects for that op, or rejects. A call
 * made while a lazy provider is still loading (a flow that began from a server's state) waits for it.
 */
export async function execute(op: ProviderOp, rt: FlowRuntime): Promise<unknown> {
  const { storage, clock } = rt;
  // No pause when the provider is there: a popup must open in the task of the click that asked for it.
  const p = rt.provider ?? (await providerOf(rt));
  if (isSecondFactorOp(op)) return secondFactorStep(op, p, rt);
  switch (op.kind) {
    case 'loadProvider': {
      const user = p.getCurrentUser();
      const loaded: ProviderLoaded = {
        currentUser: user ? { uid: user.uid, isAnonymous: user.isAnonymous } : null,
        redirectPending: readRedirectState(storage) !== null,
        signOut: rt.signOut,
      };
      return loaded;
    }
    case 'redirectResult':
      return redirectResult(p, storage);
    case 'lookupEmail':
    case 'lookupForLinking': {
      if (op.kind === 'lookupEmail' && op.tenantId !== undefined) await p.setTenant(op.tenantId);
      return p.capabilities.reliableSignInMethodLookup ? p.fetchSignInMethodsForEmail(op.email) : [];
    }
    case 'setTenant':
      return p.setTenant(op.tenantId);
    case 'passwordSignIn':
    case 'createUser': {
      if (op.link) return p.linkWithCredential({ kind: 'password', email: op.email, password: op.password });
      return op.kind === 'createUser'
        ? p.createUser(op.email, op.password, op.name ?? undefined)
        : p.signInWithEmailAndPassword(op.email, op.password);
    }
    case 'sendPasswordReset':
      return p.sendPasswordResetEmail(op.email, { url: op.url });
    case 'startPhone': {
      const verifier = op.verifier ?? rt.lastVerifier;
      if (!verifier) throw new AuthError('captcha-check-failed');
      rt.lastVerifier = verifier;
      return p.startPhoneSignIn(op.phoneNumber, verifier);
    }
    case 'confirmPhone':
      return p.confirmPhoneCode(op.verificationId, op.code, { link: op.link });
    case 'sendEmailLink': {
      const sid = rt.createId();
      const linking = op.pendingCredential?.kind === 'federated' ? op.pendingCredential.providerId : null;
      const url = buildEmailLinkUrl(op.url, {
        sid,
        anonymousUid: op.anonymousUid,
        forceSameDevice: op.forceSameDevice,
        linking,
      });
      guardStorage(rt, (s) =>
        saveEmailLinkSession(s, {
          sid,
          email: op.email,
          createdAt: clock.now(),
          pendingCredential: op.pendingCredential,
          anonymousUid: op.anonymousUid,
        }),
      );
      await p.sendSignInLinkToEmail(op.email, { url, handleCodeInApp: true });
      return undefined;
    }
    case 'checkEmailLink': {
      const session = guardStorage(rt, (s) => loadEmailLinkSession(s));
      return assessEmailLink(op.url, session, clock.now(), p.getCurrentUser()?.uid ?? null);
    }
    case 'completeEmailLink': {
      const earlier =
        rt.linkSignIn?.link === op.link && p.getCurrentUser()?.uid === rt.linkSignIn.result.user.uid
          ? rt.linkSignIn.result
          : null;
      const result = earlier ?? (await p.signInWithEmailLink(op.email, op.link, { link: op.upgrade }));
      rt.linkSignIn = { link: op.link, result };
      const linked = await linkPending(p, result, op.pendingCredential);
      rt.linkSignIn = null;
      try {
        if (storage) clearEmailLinkSession(storage);
      } catch {
        // The session expires on its own.
      }
      return linked;
    }
    case 'federated': {
      if (op.mode === 'redirect') {
        guardStorage(rt, (s) =>
          s.setItem(REDIRECT_KEY, JSON.stringify({ pendingCredential: op.pendingCredential })),
        );
      }
      const result = await p.signInWithFederated(op.providerId, {
        mode: op.mode,
        ...(op.loginHint ? { loginHint: op.loginHint } : {}),
        link: op.link,
        scopes: op.scopes,
        customParameters: op.customParameters,
      });
      return linkPending(p, result, op.pendingCredential);
    }
    case 'anonymous':
      return p.signInAnonymously();
    case 'passkey':
      return signInWithPasskey(p);
    case 'passwordSignInAndLink': {
      await p.signInWithEmailAndPassword(op.email, op.password);
      return p.linkWithCredential(op.credential);
    }
    case 'actionCode':
      return handleActionCode(op.url, p, { allowedOrigins: rt.config.allowedOrigins });
    case 'confirmPasswordReset':
      return p.confirmPasswordReset(op.code, op.password);
    case 'signOut':
      return p.signOut();
  }
}

/** `passkeys.signIn`; configured on a provider without passkeys, it fails as this browser would. */
function signInWithPasskey(p: AuthProvider): Promise<SignInResult> {
  if (!p.passkeys) throw new AuthError('passkeys-unsupported');
  return p.passkeys.signIn();
}

/** The result of a redirect sign-in that came back, linked to the credential kept before it left. */
async function redirectResult(
  p: AuthProvider,
  storage: FlowRuntime['storage'],
): Promise<SignInResult | null> {
  const pending = readRedirectState(storage);
  try {
    storage?.removeItem(REDIRECT_KEY);
  } catch {
    // unreadable storage: nothing to clear
  }
  const result = await p.getRedirectResult();
  return linkPending(p, result, pending?.pendingCredential ?? null);
}
