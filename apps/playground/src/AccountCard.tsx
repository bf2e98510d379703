/**
 * The signed-in user's account page, as an app would have one: the sections of `@doorway/ui-cards/account`
 * (profile, email address, password, ways to sign in, second factors, passkeys, devices, deleting the
 * account). The emails they cause (the email change's link, its undo link) show in the panel's outbox.
 * Loaded only once someone signs in.
 * @module
 */
import '@doorway/ui-cards/account.css';
import type { AuthProvider, SignInMethod } from '@doorway/auth-core';
import {
  ChangePassword,
  DeleteAccount,
  Devices,
  EmailAddress,
  Passkeys,
  Profile,
  SecondFactors,
  SignInMethods,
} from '@doorway/ui-cards/account';

/** The federated providers the playground's widget offers: the account page links them too. */
const LINKABLE: readonly SignInMethod[] = ['google.com', 'github.com'];

/** The account's sections, in a region of its own under the widget. */
export function AccountCard({ provider }: { provider: AuthProvider }) {
  // The app owns the popup: the fake IdP's, linked to the signed-in account.
  const link = (method: SignInMethod) => provider.signInWithFederated(method, { mode: 'popup', link: true });
  return (
    <section className="playground-account" aria-label="Your account">
      <Profile provider={provider} />
      <EmailAddress provider={provider} />
      <ChangePassword provider={provider} />
      <SignInMethods provider={provider} linkable={LINKABLE} onLink={link} />
      <SecondFactors provider={provider} />
      <Passkeys provider={provider} />
      <Devices provider={provider} />
      <DeleteAccount provider={provider} />
    </section>
  );
}
