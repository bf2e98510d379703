/**
 * What every part of `<SecondFactors>` reads besides its own state: the provider and its second-factor
 * operations, the live region, and the host's way to sign in again.
 * @module
 */
import type { AuthProvider, ProviderCapabilities, SecondFactorOperations } from '@doorway/auth-core';
import { createContext, useContext } from 'react';

/**
 * What `<SecondFactors>` uses of a provider: any {@link AuthProvider} is one, and so is an object with only
 * these (e.g. operations that run on a server, for a host whose browser holds no session of its own).
 */
export interface AccountProvider {
  readonly capabilities: Pick<ProviderCapabilities, 'secondFactors'>;
  readonly secondFactors?: SecondFactorOperations;
  /** Needed when `capabilities.secondFactors` lists `phone` (a fresh captcha per code sent). */
  createCaptchaVerifier: AuthProvider['createCaptchaVerifier'];
}

/** What every operation of an account card needs: the live region and the host's way to sign in again. */
export interface AttemptEnv {
  /**
   * Says `text` in the component's polite live region, or its assertive one when `urgent` (also when it is
   * the same text again).
   */
  announce: (text: string, urgent?: boolean) => void;
  /** The host's re-authentication, when it gave one: offered on `requires-recent-login`. */
  reauthenticate: (() => Promise<void>) | undefined;
}

/** Provides {@link AttemptEnv} to the operations of the account sections, `<SecondFactors>` and `<Passkeys>`. */
export const AttemptContext = createContext<AttemptEnv | null>(null);

/** The {@link AttemptEnv} of the surrounding account card. */
export function useAttemptEnv(): AttemptEnv {
  const env = useContext(AttemptContext);
  if (!env)
    throw new Error(
      'Doorway: account steps must be rendered inside an account section, <SecondFactors> or <Passkeys>',
    );
  return env;
}

/** The environment `<SecondFactors>` gives its steps. */
export interface AccountEnv extends AttemptEnv {
  provider: AccountProvider;
  ops: SecondFactorOperations;
}

/** Provides {@link AccountEnv} to the steps of `<SecondFactors>`. */
export const AccountContext = createContext<AccountEnv | null>(null);

/** The {@link AccountEnv} of the surrounding `<SecondFactors>`. */
export function useAccount(): AccountEnv {
  const env = useContext(AccountContext);
  if (!env) throw new Error('Doorway: second-factor steps must be rendered inside <SecondFactors>');
  return env;
}
