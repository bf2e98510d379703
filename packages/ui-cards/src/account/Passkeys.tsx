/**
 * `<Passkeys>`: the signed-in user's passkeys, for an account page: the list (each with Remove, confirmed in
 * place) and "Add a passkey" with an optional name (the browser's own passkey dialog does the rest).
 * Results and errors are said in a polite live region.
 * @module
 */
import type { PasskeyInfo, PasskeyOperations, ProviderCapabilities } from '@doorway/auth-core';
import { type FormEvent, useCallback, useMemo, useRef, useState } from 'react';
import { Actions, Button, Field, Spinner, Text } from '../parts.tsx';
import { errorsFor, useAttempt } from './attempt.ts';
import { AttemptContext, type AttemptEnv } from './env.ts';
import { ErrorNote, Heading, useAnnouncer, useOnce } from './parts.tsx';
import { RemovableItem } from './RemovableItem.tsx';
import { accountText, passkeyText } from './text.ts';

/** What `<Passkeys>` uses of a provider: any `AuthProvider` is one. */
export interface PasskeyProvider {
  readonly capabilities: Pick<ProviderCapabilities, 'passkeys'>;
  readonly passkeys?: PasskeyOperations;
}

/** Props of {@link Passkeys}. */
export interface PasskeysProps {
  /** The provider the user is signed in with; `capabilities.passkeys` says whether it has passkeys. */
  provider: PasskeyProvider;
  /** Called with the user's passkeys after each one added or removed. */
  onChange?: (passkeys: readonly PasskeyInfo[]) => void;
  /** As `<SecondFactors>`'s: offered on `requires-recent-login`, then the operation runs again in place. */
  reauthenticate?: () => Promise<void>;
}

const passkeyName = (passkey: PasskeyInfo) => passkey.name ?? passkeyText.unnamed;

const dateOf = (ms: number) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(ms);

/** The add form: an optional name, then the browser's dialog. */
function AddPasskey(props: { ops: PasskeyOperations; onAdded: (passkey: PasskeyInfo) => void }) {
  const attempt = useAttempt();
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt.run(async () => {
      const trimmed = name.trim();
      props.onAdded(await props.ops.add(trimmed === '' ? undefined : trimmed));
      setName('');
      return null;
    });
  };
  return (
    <form ref={attempt.scope} onSubmit={submit} noValidate>
      <ErrorNote message={errorsFor(attempt.error, []).card} attempt={attempt} />
      <Field
        label={passkeyText.nameLabel}
        hint={passkeyText.nameHint}
        value={name}
        maxLength={64}
        autoComplete="off"
        onChange={(e) => setName(e.target.value)}
      />
      <Actions>
        <Button type="submit" disabled={attempt.pending}>
          {passkeyText.add}
        </Button>
      </Actions>
    </form>
  );
}

/** The list and the add form, once the provider is known to have passkeys. */
function PasskeyList(props: { ops: PasskeyOperations; announce: (text: string) => void } & PasskeysProps) {
  const { ops, announce } = props;
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const [passkeys, setPasskeys] = useState<readonly PasskeyInfo[] | null>(null);
  const load = useAttempt();
  const { run } = load;
  const reload = useCallback(
    () =>
      void run(async () => {
        setPasskeys(await ops.list());
        return null;
      }),
    [run, ops],
  );
  useOnce(reload);
  const changed = (next: readonly PasskeyInfo[], said: string) => {
    setPasskeys(next);
    onChange.current?.(next);
    announce(said);
  };
  const list = passkeys ?? [];
  return (
    <>
      {passkeys === null ? (
        load.error ? (
          <ErrorNote message={errorsFor(load.error, []).card} attempt={load} onRetry={reload} />
        ) : (
          <Spinner label={accountText.loading} />
        )
      ) : passkeys.length === 0 ? (
        <Text>{passkeyText.none}</Text>
      ) : (
        <ul className="doorway-factors" aria-label={passkeyText.yourPasskeys}>
          {passkeys.map((passkey) => (
            <RemovableItem
              key={passkey.id}
              name={passkeyName(passkey)}
              remove={() => ops.remove(passkey.id)}
              onRemoved={() =>
                changed(
                  list.filter((p) => p.id !== passkey.id),
                  accountText.removed(passkeyName(passkey)),
                )
              }
            >
              <p className="doorway-factor-about">
                <span className="doorway-factor-name">{passkeyName(passkey)}</span>
                <span className="doorway-hint">
                  {passkeyText.detail(dateOf(passkey.createdAt), passkey.backedUp)}
                </span>
              </p>
            </RemovableItem>
          ))}
        </ul>
      )}
      <AddPasskey
        ops={ops}
        onAdded={(passkey) => changed([...list, passkey], accountText.added(passkeyName(passkey)))}
      />
    </>
  );
}

/**
 * The signed-in user's passkeys, with Remove and "Add a passkey" (none on a provider without passkeys: a
 * short note). Renders on a server (the list loads once mounted); style it with `styles.css` and
 * `account.css`.
 * @example
 * import { Passkeys } from '@doorway/ui-cards/account';
 * <Passkeys provider={provider} reauthenticate={() => openSignInDialog()} />
 */
export function Passkeys(props: PasskeysProps) {
  const { provider, reauthenticate } = props;
  const { announce, region } = useAnnouncer();
  const env = useMemo((): AttemptEnv => ({ announce, reauthenticate }), [announce, reauthenticate]);
  const ops = provider.capabilities.passkeys ? provider.passkeys : undefined;
  return (
    <div className="doorway doorway-account">
      <Heading focusKey={0}>{passkeyText.title}</Heading>
      {ops ? (
        <AttemptContext.Provider value={env}>
          <Text>{passkeyText.intro}</Text>
          <noscript>
            <p className="doorway-error">{passkeyText.needsJavaScript}</p>
          </noscript>
          <PasskeyList {...props} ops={ops} announce={announce} />
        </AttemptContext.Provider>
      ) : (
        <Text>{passkeyText.unavailable}</Text>
      )}
      {region}
    </div>
  );
}
