import type {
  AuthProvider,
  CardName,
  FlowEvent,
  MessageKey,
  StateOf,
  UI_EVENT_TYPES,
  WidgetConfig,
} from '@doorway/auth-core';
import { createContext, useContext } from 'react';

/** What cards send: the events a person's actions produce, and the answer of the email card's autofill. */
export type UiEvent = Extract<
  FlowEvent,
  { type: (typeof UI_EVENT_TYPES)[number] | 'PASSKEY_AUTOFILLED' | 'PASSKEY_AUTOFILL_FAILED' }
>;

/** Props every card component takes: its narrowed state and the flow's `send`. */
export interface CardProps<C extends CardName> {
  state: StateOf<C>;
  send: (event: UiEvent) => void;
}

/** What cards may read besides their state: the normalised config and the (loaded) provider. */
export interface WidgetEnv {
  config: WidgetConfig;
  /** The provider once it is available (`null` while a lazy provider loads). Used only for the captcha. */
  getProvider: () => AuthProvider | null;
  /** The option this browser last signed in with (`email`, `github.com`, …), marked "Last used" on the chooser. */
  lastUsed?: { get(): string | null; subscribe(listener: () => void): () => void };
  /** The error the card shows, if any (its heading is then not the page's `autofocus`). */
  error?: MessageKey | null;
}

/** Provides {@link WidgetEnv} to cards; `<SignInWidget>` sets it, custom shells around `FlowRouter` must too. */
export const WidgetContext = createContext<WidgetEnv | null>(null);

/** The widget environment; cards rendered outside `<SignInWidget>` need a `<WidgetContext.Provider>`. */
export function useWidget(): WidgetEnv {
  const env = useContext(WidgetContext);
  if (!env) throw new Error('Doorway: cards need <SignInWidget> or a WidgetContext provider');
  return env;
}

/** Fails to compile when a `switch` misses a case; throws if one slips through at runtime. */
export function assertNever(value: never): never {
  throw new Error(`Doorway: unknown card ${JSON.stringify((value as { card?: unknown }).card)}`);
}
