/**
 * The signed-in user's account page, as an app would have one: `<SecondFactors>` and `<Passkeys>` of
 * `@doorway/ui-cards/account`, to add and remove second factors and passkeys. Loaded only once someone
 * signs in.
 * @module
 */
import '@doorway/ui-cards/account.css';
import type { AuthProvider } from '@doorway/auth-core';
import { Passkeys, SecondFactors } from '@doorway/ui-cards/account';

/** The account's second factors and passkeys, in a region of its own under the widget. */
export function AccountCard({ provider }: { provider: AuthProvider }) {
  return (
    <section className="playground-account" aria-label="Your account">
      <SecondFactors provider={provider} />
      <Passkeys provider={provider} />
    </section>
  );
}
