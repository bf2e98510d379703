/**
 * What the account sections (`<Profile>`, `<EmailAddress>`, `<ChangePassword>`, `<SignInMethods>`,
 * `<Devices>`, `<DeleteAccount>`) share: the provider they read, the frame each renders in (heading, intro,
 * the polite and assertive live regions, the host's re-authentication) when the provider can run its
 * operations, and the split of an error between a section's fields.
 * @module
 */
import {
  type AccountOperation,
  type AccountOperations,
  type AuthUser,
  type MessageKey,
  messageFor,
  type ProviderCapabilities,
} from '@doorway/auth-core';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { Text } from '../parts.tsx';
import { AttemptContext, type AttemptEnv } from './env.ts';
import { Heading, useAnnouncer } from './parts.tsx';

/**
 * What the account sections use of a provider: any `AuthProvider` is one, and so is an object with only
 * these (operations that run on a server, for instance).
 */
export interface AccountSectionProvider {
  readonly capabilities: Pick<ProviderCapabilities, 'account'>;
  readonly account?: AccountOperations;
  /** The signed-in user: its address, name and sign-in methods fill the sections in. */
  getCurrentUser?(): AuthUser | null;
}

/** Props every account section takes. */
export interface AccountSectionProps {
  /** The provider the user is signed in with; `capabilities.account` says which sections it can run. */
  provider: AccountSectionProvider;
  /**
   * As `<SecondFactors>`'s: after `requires-recent-login`, "Sign in again" awaits it, then the operation
   * runs again in place.
   */
  reauthenticate?: () => Promise<void>;
}

/** What a section's content gets from its frame. */
export interface SectionBody {
  ops: AccountOperations;
  /** The signed-in user now, when the provider tells. */
  user: () => AuthUser | null;
  /** Says `text` (politely) and moves focus to the section's heading: an operation succeeded. */
  done: (text: string) => void;
  announce: (text: string, urgent?: boolean) => void;
}

/** Whether the provider can run every one of `needs`. */
export function canRun(provider: AccountSectionProvider, needs: readonly AccountOperation[]): boolean {
  const listed = provider.capabilities.account ?? [];
  return provider.account !== undefined && needs.every((op) => listed.includes(op));
}

/**
 * A section's frame: nothing when the provider cannot run `needs`, else the heading (focused after each
 * success), the intro, `children` with what they need, and the live regions.
 */
export function Section(
  props: AccountSectionProps & {
    needs: readonly AccountOperation[];
    title: string;
    intro?: string;
    children: (body: SectionBody) => ReactNode;
  },
) {
  const { provider, reauthenticate, children } = props;
  const { announce, region } = useAnnouncer();
  const [focus, setFocus] = useState(0);
  const env = useMemo((): AttemptEnv => ({ announce, reauthenticate }), [announce, reauthenticate]);
  const done = useCallback(
    (text: string) => {
      announce(text);
      setFocus((n) => n + 1);
    },
    [announce],
  );
  const user = useCallback(() => provider.getCurrentUser?.() ?? null, [provider]);
  const ops = provider.account;
  if (!ops || !canRun(provider, props.needs)) return null;
  return (
    <div className="doorway doorway-account">
      <Heading focusKey={focus}>{props.title}</Heading>
      {props.intro ? <Text>{props.intro}</Text> : null}
      <AttemptContext.Provider value={env}>{children({ ops, user, done, announce })}</AttemptContext.Provider>
      {region}
    </div>
  );
}

/**
 * Splits a section's error between its fields (`fields` names the field of each key it has one for): that
 * field gets the catalogue's text, anything else the section's error line (`card`).
 */
export function fieldErrors<F extends string>(
  error: MessageKey | null,
  fields: Partial<Record<MessageKey, F>>,
): Partial<Record<F | 'card', string>> {
  if (error === null) return {};
  return { [fields[error] ?? 'card']: messageFor(error) } as Partial<Record<F | 'card', string>>;
}
