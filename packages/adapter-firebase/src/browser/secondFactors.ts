/**
 * Second factors on the SDK: finishing a sign-in that met its challenge (`challenge.ts` keeps the
 * resolver), and the signed-in user's enrolments through `multiFactor(user)`: SMS (`verifyPhoneNumber`
 * with an enrolment session) and authenticator apps (`TotpMultiFactorGenerator`), listing and removal.
 * Each SMS send needs a solved captcha of this provider, used up by the send (see `withVerifier`).
 * @module
 */
import {
  AuthError,
  type CaptchaVerifier,
  type SecondFactorChallenge,
  type SecondFactorInfo,
  type SignInResult,
  type TotpEnrollment,
} from '@doorway/auth-core';
import {
  type MultiFactorAssertion,
  multiFactor,
  PhoneAuthProvider,
  PhoneMultiFactorGenerator,
  TotpMultiFactorGenerator,
  type User,
} from 'firebase/auth';
import { withAuthErrors } from '../shared/common.ts';
import { forgetSignIn, pendingSignIn, randomId, toSecondFactorInfo } from './challenge.ts';
import { type BrowserContext, requireUser } from './context.ts';
import { withVerifier } from './phone.ts';
import { signInResult } from './results.ts';

/**
 * `startSignIn`: a phone factor texts its code (`verifyPhoneNumber` with the hint and the resolver's
 * session; the captcha is required: `captcha-check-failed` without one); a TOTP factor needs no network:
 * its verification id only remembers the factor. A factor the challenge does not list: `code-expired`.
 */
export async function startSecondFactorSignIn(
  ctx: BrowserContext,
  challenge: SecondFactorChallenge,
  factorUid: string,
  verifier: CaptchaVerifier | undefined,
): Promise<{ verificationId: string }> {
  const { pending } = pendingSignIn(ctx, challenge);
  const hint = pending.resolver.hints.find((h) => h.uid === factorUid);
  if (hint === undefined) throw new AuthError('code-expired');
  if (hint.factorId === TotpMultiFactorGenerator.FACTOR_ID) {
    const verificationId = `totp-${randomId()}`;
    pending.totpChecks.set(verificationId, hint.uid);
    return { verificationId };
  }
  if (verifier === undefined) throw new AuthError('captcha-check-failed');
  return withVerifier(ctx, verifier, (appVerifier) =>
    withAuthErrors('phone', async () => {
      const session = pending.resolver.session;
      const provider = new PhoneAuthProvider(ctx.auth);
      const verificationId = await provider.verifyPhoneNumber(
        { multiFactorHint: hint, session },
        appVerifier,
      );
      return { verificationId };
    }),
  );
}

/**
 * `finishSignIn`: the code's assertion (TOTP for a verification id `startSignIn` opened as one, else SMS)
 * resolves the sign-in. The result reports the first factor's provider id and `isNewUser: false`; a wrong
 * code leaves the sign-in pending (and nobody signed in), so the right one may follow.
 */
export async function finishSecondFactorSignIn(
  ctx: BrowserContext,
  challenge: SecondFactorChallenge,
  verificationId: string,
  code: string,
): Promise<SignInResult> {
  const { resolverId, pending } = pendingSignIn(ctx, challenge);
  const totpUid = pending.totpChecks.get(verificationId);
  const assertion: MultiFactorAssertion =
    totpUid === undefined
      ? PhoneMultiFactorGenerator.assertion(PhoneAuthProvider.credential(verificationId, code))
      : TotpMultiFactorGenerator.assertionForSignIn(totpUid, code);
  const credential = await withAuthErrors(totpUid === undefined ? 'phone' : 'other', () =>
    pending.resolver.resolveSignIn(assertion),
  );
  ctx.pendingSignIns.delete(resolverId);
  const providerId = pending.providerId ?? credential.providerId ?? 'unknown';
  return { ...signInResult(credential, providerId, pending.federated), isNewUser: false };
}

/** `cancelSignIn`: forgets the resolver; nobody was signed in, nobody is. Never rejects. */
export async function cancelSecondFactorSignIn(
  ctx: BrowserContext,
  challenge: SecondFactorChallenge,
): Promise<void> {
  forgetSignIn(ctx, challenge);
}

/** `list`: the signed-in user's factors (phone numbers in full). `requires-recent-login` with nobody signed in. */
export async function listSecondFactors(ctx: BrowserContext): Promise<SecondFactorInfo[]> {
  return multiFactor(requireUser(ctx)).enrolledFactors.map(toSecondFactorInfo);
}

/** Enrols the assertion's factor on `user`; resolves the factor it added. */
async function enrol(
  user: User,
  assertion: MultiFactorAssertion,
  displayName: string | undefined,
): Promise<SecondFactorInfo> {
  const factors = multiFactor(user);
  const before = new Set(factors.enrolledFactors.map((f) => f.uid));
  // No name is left out: the emulator refuses `displayName: null` (`must be string`).
  await factors.enroll(assertion, displayName || undefined);
  const added = multiFactor(user).enrolledFactors.find((f) => !before.has(f.uid));
  if (added === undefined) throw new AuthError('generic');
  return toSecondFactorInfo(added);
}

/** `startPhoneEnrollment`: an enrolment session, then the code texted to the number. */
export async function startPhoneEnrollment(
  ctx: BrowserContext,
  phoneNumber: string,
  verifier: CaptchaVerifier,
): Promise<{ verificationId: string }> {
  const user = requireUser(ctx);
  return withVerifier(ctx, verifier, (appVerifier) =>
    withAuthErrors('phone', async () => {
      const session = await multiFactor(user).getSession();
      const provider = new PhoneAuthProvider(ctx.auth);
      return { verificationId: await provider.verifyPhoneNumber({ phoneNumber, session }, appVerifier) };
    }),
  );
}

/** `finishPhoneEnrollment`: the SMS code's assertion enrols the number under `displayName`. */
export async function finishPhoneEnrollment(
  ctx: BrowserContext,
  verificationId: string,
  code: string,
  displayName: string | undefined,
): Promise<SecondFactorInfo> {
  const user = requireUser(ctx);
  return withAuthErrors('phone', () =>
    enrol(
      user,
      PhoneMultiFactorGenerator.assertion(PhoneAuthProvider.credential(verificationId, code)),
      displayName,
    ),
  );
}

/** The TOTP issuer: the host's, else the project id, else the app's name (the SDK's own default). */
function totpIssuer(ctx: BrowserContext): string {
  return ctx.settings.totpIssuer ?? ctx.auth.app.options.projectId ?? ctx.auth.app.name;
}

/**
 * `startTotpEnrollment`: a secret from Firebase (`generateSecret` on an enrolment session), kept by a new
 * enrollment id (a new one replaces any other in progress, as a new QR code would), and its `otpauth://`
 * URI naming the user's email (else number, else uid) and the issuer.
 */
export async function startTotpEnrollment(ctx: BrowserContext): Promise<TotpEnrollment> {
  const user = requireUser(ctx);
  return withAuthErrors('enrollment', async () => {
    const secret = await TotpMultiFactorGenerator.generateSecret(await multiFactor(user).getSession());
    const enrollmentId = randomId();
    ctx.totpEnrollments.clear();
    ctx.totpEnrollments.set(enrollmentId, secret);
    const account = user.email ?? user.phoneNumber ?? user.uid;
    // The SDK puts both into the URI as they are: encoded here, as the key URI format wants.
    const uri = secret.generateQrCodeUrl(encodeURIComponent(account), encodeURIComponent(totpIssuer(ctx)));
    return { enrollmentId, secret: secret.secretKey, uri };
  });
}

/** `finishTotpEnrollment`: a code of the secret enrols it (`code-expired` for an enrolment not in progress). */
export async function finishTotpEnrollment(
  ctx: BrowserContext,
  enrollmentId: string,
  code: string,
  displayName: string | undefined,
): Promise<SecondFactorInfo> {
  const user = requireUser(ctx);
  const secret = ctx.totpEnrollments.get(enrollmentId);
  if (secret === undefined) throw new AuthError('code-expired');
  const factor = await withAuthErrors('enrollment', () =>
    enrol(user, TotpMultiFactorGenerator.assertionForEnrollment(secret, code), displayName),
  );
  ctx.totpEnrollments.delete(enrollmentId);
  return factor;
}

/** `unenroll`: removes one of the signed-in user's factors. */
export async function unenrollSecondFactor(ctx: BrowserContext, factorUid: string): Promise<void> {
  const user = requireUser(ctx);
  return withAuthErrors('enrollment', () => multiFactor(user).unenroll(factorUid));
}
