/**
 * What every part of `<SecondFactors>` reads besides its own state: the provider and its second-factor
 * operations, the live region, and the host's way to sign in again.
 * @module
 */
import type { AuthProvider, SecondFactorOperations } from '@doorway/auth-core';
import { createContext, useContext } from 'react';

/** The environment `<SecondFactors>` gives its steps. */
export interface AccountEnv {
  provider: AuthProvider;
  ops: SecondFactorOperations;
  /** Says `text` in the component's polite live region (also when it is the same text again). */
  announce: (text: string) => void;
  /** The host's re-authentication, when it gave one: offered on `requires-recent-login`. */
  reauthenticate: (() => Promise<void>) | undefined;
}

/** Provides {@link AccountEnv} to the steps of `<SecondFactors>`. */
export const AccountContext = createContext<AccountEnv | null>(null);

/** The {@link AccountEnv} of the surrounding `<SecondFactors>`. */
export function useAccount(): AccountEnv {
  const env = useContext(AccountContext);
  if (!env) throw new Error('Doorway: second-factor steps must be rendered inside <SecondFactors>');
  return env;
}
