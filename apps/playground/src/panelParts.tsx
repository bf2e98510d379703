/**
 * The side panel's parts that are the same for every backend: its controls, the session, the outbox, the
 * widget config, the world. What differs between backends comes in through a {@link PanelBackend}.
 * @module
 */
import type { AuthProvider } from '@doorway/auth-core';
import { type ReactNode, useState } from 'react';
import { type AuthenticatorCode, AuthenticatorCodes } from './AuthenticatorCodes.tsx';
import type { PanelPasskey } from './Passkeys.tsx';
import { DEFAULT_CONFIG, type PlaygroundConfig } from './world.ts';

/** An email in a backend's outbox, as the panel lists it. */
export interface OutboxEmail {
  key: string;
  /** What the email is for (its template or action). */
  kind: string;
  to: string;
  /** The link it carries (an email without one is listed without "Open link"). */
  link: string | null;
}

/** A text message in a backend's outbox. */
export interface OutboxSms {
  key: string;
  to: string;
  code: string;
}

/** What the side panel needs of a backend: its outbox, the widget switches it offers, its world. */
export interface PanelBackend {
  name: 'fake' | 'supabase';
  /** The world's id (`?world=`). */
  worldId: string;
  provider: AuthProvider;
  /** Emails sent, newest first. */
  emails(): readonly OutboxEmail[];
  /** Text messages sent, newest first. */
  sms(): readonly OutboxSms[];
  /** What the accounts' authenticator apps show now (a backend that can tell). */
  authenticators?: () => readonly AuthenticatorCode[];
  /** The passkeys the backend keeps for its accounts (a backend that can tell). */
  passkeys?: () => readonly PanelPasskey[];
  /** The widget switches this backend offers, in the panel's order. */
  switches: readonly (keyof PlaygroundConfig)[];
  config(): PlaygroundConfig;
  setConfig(config: PlaygroundConfig): void;
  /** The playground page of this world (where emailed links land). */
  pageUrl(): string;
  /** Resolves when everything so far is saved: wait for it before navigating away. */
  flushed(): Promise<void>;
  becomeAnotherDevice(): void;
  reset(): Promise<void>;
}

/** A checkbox with its label. */
export function Check(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="playground-check">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />{' '}
      {props.label}
    </label>
  );
}

/** Radio buttons in a fieldset. */
export function Choice<T extends string>(props: {
  legend: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="playground-choice">
      <legend>{props.legend}</legend>
      {props.options.map(([value, label]) => (
        <label key={value} className="playground-check">
          <input
            type="radio"
            name={props.legend}
            value={value}
            checked={props.value === value}
            onChange={() => props.onChange(value)}
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Switches the playground between the fake backend and the adapter-supabase on the GoTrue double
 * (`?provider=supabase`), keeping the world id.
 */
export function BackendSwitch({ current, world }: { current: PanelBackend['name']; world: string }) {
  return (
    <Choice
      legend="Backend"
      value={current}
      options={[
        ['fake', 'Fake (adapter-fake)'],
        ['supabase', 'Supabase (local GoTrue double)'],
      ]}
      onChange={(next) => {
        const url = new URL('/', location.href);
        if (next === 'supabase') url.searchParams.set('provider', 'supabase');
        if (world !== 'default') url.searchParams.set('world', world);
        location.assign(url.href);
      }}
    />
  );
}

/**
 * The panel's status line and how its buttons run what they do: a failure is said on the status line, and
 * the widget is mounted anew afterwards (it reads the new session). `clearOnSuccess` empties the line when
 * a run succeeds.
 */
export function useActions(onRemount: () => void, clearOnSuccess: boolean) {
  const [status, setStatus] = useState('');
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
      if (clearOnSuccess) setStatus('');
    } catch (e) {
      setStatus(e instanceof Error ? e.message : String(e));
    }
    onRemount();
  };
  return { status, setStatus, act };
}

/** Who is signed in, and the app's own sign-in and sign-out; `children` say more (a conflict, a status). */
export function SessionSection(props: {
  provider: AuthProvider;
  act: (run: () => Promise<unknown>) => void;
  children?: ReactNode;
}) {
  const { provider, act } = props;
  const user = provider.getCurrentUser();
  return (
    <section aria-labelledby="pg-session">
      <h2 id="pg-session">Session</h2>
      <p>
        {user
          ? `Signed in: ${user.isAnonymous ? 'anonymous user' : (user.email ?? user.phoneNumber ?? user.uid)} (${user.uid})`
          : 'Nobody is signed in.'}
      </p>
      <div className="playground-row">
        <button type="button" onClick={() => act(() => provider.signInAnonymously())}>
          Sign in anonymously first
        </button>
        <button type="button" onClick={() => act(() => provider.signOut())}>
          Sign out (app)
        </button>
      </div>
      {props.children}
    </section>
  );
}

/** Opens an emailed link in this tab, once the world is saved (the page it opens replays it). */
function openLink(backend: PanelBackend, link: string, anotherDevice: boolean): void {
  if (anotherDevice) backend.becomeAnotherDevice();
  void backend.flushed().then(() => location.assign(link));
}

/** One email of the outbox: what it is, and its link to open here or as another device. */
function EmailItem({ backend, email }: { backend: PanelBackend; email: OutboxEmail }) {
  const { kind, to, link } = email;
  return (
    <li>
      <span>
        {kind} email to {to}
      </span>
      {link ? (
        <span className="playground-row">
          <a
            href={link}
            aria-label={`Open ${kind} link for ${to}`}
            onClick={(e) => {
              e.preventDefault();
              openLink(backend, link, false);
            }}
          >
            Open link
          </a>
          <button
            type="button"
            aria-label={`Open ${kind} link for ${to} as another device`}
            onClick={() => openLink(backend, link, true)}
          >
            Open as another device
          </button>
        </span>
      ) : null}
    </li>
  );
}

/**
 * The backend's outbox: emails (with their links) and text messages (with their codes), newest first, and
 * the codes the accounts' authenticator apps show now.
 */
export function OutboxSection({ backend }: { backend: PanelBackend }) {
  const emails = backend.emails();
  const sms = backend.sms();
  return (
    <section aria-labelledby="pg-outbox">
      <h2 id="pg-outbox">Outbox</h2>
      {emails.length === 0 && sms.length === 0 ? <p>Nothing sent yet.</p> : null}
      <ul className="playground-outbox" aria-label="Emails">
        {emails.map((m) => (
          <EmailItem key={m.key} backend={backend} email={m} />
        ))}
      </ul>
      <ul className="playground-outbox" aria-label="Text messages">
        {sms.map((m) => (
          <li key={m.key}>
            SMS to {m.to}: code <code data-testid="sms-code">{m.code}</code>
          </li>
        ))}
      </ul>
      {backend.authenticators ? <AuthenticatorCodes read={backend.authenticators} /> : null}
    </section>
  );
}

type ChoiceName = 'displayMode' | 'signInFlow' | 'emailMethod' | 'theme';
type SetConfig = (patch: Partial<PlaygroundConfig>) => void;

function choice<K extends ChoiceName>(
  name: K,
  legend: string,
  options: readonly (readonly [PlaygroundConfig[K], string])[],
) {
  return (config: PlaygroundConfig, set: SetConfig) => (
    <Choice
      key={name}
      legend={legend}
      value={config[name]}
      options={options}
      // A patch of the one switch `name` (a computed key loses its type).
      onChange={(value) => set({ [name]: value } as Partial<PlaygroundConfig>)}
    />
  );
}

function check(name: Exclude<keyof PlaygroundConfig, ChoiceName>, label: string) {
  return (config: PlaygroundConfig, set: SetConfig) => (
    <Check key={name} label={label} checked={config[name]} onChange={(value) => set({ [name]: value })} />
  );
}

/** Every widget switch of the panel, in the panel's order. */
const SWITCHES: Record<keyof PlaygroundConfig, (config: PlaygroundConfig, set: SetConfig) => ReactNode> = {
  displayMode: choice('displayMode', 'Display mode', [
    ['optionFirst', 'Option first'],
    ['identifierFirst', 'Identifier first'],
  ]),
  signInFlow: choice('signInFlow', 'Federated sign-in', [
    ['popup', 'Popup'],
    ['redirect', 'Redirect'],
  ]),
  emailMethod: choice('emailMethod', 'Email option', [
    ['password', 'Password'],
    ['emailLink', 'Email link'],
  ]),
  theme: choice('theme', 'Theme', [
    ['auto', 'System'],
    ['light', 'Light'],
    ['dark', 'Dark'],
  ]),
  requireName: check('requireName', 'Require name'),
  tenants: check('tenants', 'Tenants'),
  autoUpgrade: check('autoUpgrade', 'Anonymous upgrade'),
  restrictSignUp: check('restrictSignUp', 'Restrict sign-up (unauthorized user)'),
  forceSameDevice: check('forceSameDevice', 'Force same device for email links'),
  noStorage: check('noStorage', 'No web storage'),
};

/** The widget switches the backend offers, and a way back to the default config. */
export function ConfigSection({ backend }: { backend: PanelBackend }) {
  const config = backend.config();
  const set: SetConfig = (patch) => backend.setConfig({ ...config, ...patch });
  return (
    <section aria-labelledby="pg-config">
      <h2 id="pg-config">Widget config</h2>
      {backend.switches.map((name) => SWITCHES[name](config, set))}
      <button type="button" onClick={() => backend.setConfig(DEFAULT_CONFIG)}>
        Default config
      </button>
    </section>
  );
}

/** The world: what it holds (`children`) and a button that forgets it. */
export function WorldSection({ backend, children }: { backend: PanelBackend; children: ReactNode }) {
  return (
    <section aria-labelledby="pg-world">
      <h2 id="pg-world">World</h2>
      <p>{children}</p>
      <button
        type="button"
        onClick={async () => {
          await backend.reset();
          location.assign(backend.pageUrl());
        }}
      >
        Reset world
      </button>
    </section>
  );
}
