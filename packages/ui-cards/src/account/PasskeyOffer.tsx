/**
 * `<PasskeyOffer>`: a short prompt that offers adding a passkey, for a page shown after a password sign-in
 * ("Add a passkey" / "Not now"). It shows only where the provider has passkeys and the user has none yet
 * (it lists them first, and shows nothing while it does or when that fails); the host decides when to mount
 * it and remembers the answer (`onAnswer`) so that it is offered once. A labelled region; the result
 * replaces the buttons, takes the focus and is said in a polite live region.
 * @module
 */
import type { PasskeyInfo } from '@doorway/auth-core';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Actions, Button, Text } from '../parts.tsx';
import { errorsFor, useAttempt } from './attempt.ts';
import { AttemptContext, type AttemptEnv } from './env.ts';
import type { PasskeyProvider } from './Passkeys.tsx';
import { ErrorNote, useAnnouncer } from './parts.tsx';
import { passkeyOfferText, passkeyText } from './text.ts';

/** How the offer ended: a passkey added, "Not now", or no offer since the user already has a passkey. */
export type PasskeyOfferAnswer =
  | { kind: 'added'; passkey: PasskeyInfo }
  | { kind: 'declined' }
  | { kind: 'has-passkey' };

/** Props of {@link PasskeyOffer}. */
export interface PasskeyOfferProps {
  /** The provider the user is signed in with (as `<Passkeys>`'). Without passkeys, nothing shows. */
  provider: PasskeyProvider;
  /** Called once: the person's answer, or `has-passkey` when there was nothing to offer. */
  onAnswer?: (answer: PasskeyOfferAnswer) => void;
  /** As `<Passkeys>`': offered on `requires-recent-login`, then the passkey is added in place. */
  reauthenticate?: () => Promise<void>;
}

type Phase = 'checking' | 'offer' | 'added' | 'declined' | 'none';

/** The offer's question and buttons, then its result (focused). */
function OfferBody(props: {
  phase: 'offer' | 'added' | 'declined';
  add: () => void;
  decline: () => void;
  attempt: ReturnType<typeof useAttempt>;
}) {
  const { phase, attempt } = props;
  const result = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (phase !== 'offer') result.current?.focus();
  }, [phase]);
  if (phase !== 'offer') {
    return (
      <p ref={result} className="doorway-text" tabIndex={-1}>
        {phase === 'added' ? passkeyOfferText.added : passkeyOfferText.declined}
      </p>
    );
  }
  return (
    <>
      <Text>{passkeyOfferText.intro}</Text>
      <ErrorNote message={errorsFor(attempt.error, []).card} attempt={attempt} />
      <Actions>
        <Button type="button" onClick={props.add} disabled={attempt.pending}>
          {passkeyText.add}
        </Button>
        <Button type="button" secondary onClick={props.decline} disabled={attempt.pending}>
          {passkeyOfferText.notNow}
        </Button>
      </Actions>
    </>
  );
}

/** The offer once the provider is known to have passkeys. */
function Offer(props: PasskeyOfferProps & { announce: (text: string) => void; region: ReactNode }) {
  const ops = props.provider.passkeys;
  const onAnswer = useRef(props.onAnswer);
  onAnswer.current = props.onAnswer;
  const [phase, setPhase] = useState<Phase>('checking');
  const attempt = useAttempt();
  const headingId = useId();
  const started = useRef(false);
  useEffect(() => {
    if (started.current || ops === undefined) return; // once, StrictMode or not
    started.current = true;
    ops.list().then(
      (passkeys) => {
        if (passkeys.length === 0) return setPhase('offer');
        setPhase('none');
        onAnswer.current?.({ kind: 'has-passkey' });
      },
      // Nothing to offer when the list cannot be read: the account page's own card says why.
      () => setPhase('none'),
    );
  }, [ops]);
  if (ops === undefined || phase === 'checking' || phase === 'none') return null;
  const add = () =>
    void attempt.run(async () => {
      const passkey = await ops.add();
      setPhase('added');
      props.announce(passkeyOfferText.added);
      onAnswer.current?.({ kind: 'added', passkey });
      return null;
    });
  const decline = () => {
    setPhase('declined');
    props.announce(passkeyOfferText.declined);
    onAnswer.current?.({ kind: 'declined' });
  };
  return (
    <section
      ref={attempt.scope}
      className="doorway doorway-account doorway-passkey-offer"
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="doorway-title" tabIndex={-1}>
        {passkeyOfferText.title}
      </h2>
      <OfferBody phase={phase} add={add} decline={decline} attempt={attempt} />
      {props.region}
    </section>
  );
}

/**
 * Offers adding a passkey, once the user has none: "Add a passkey" runs the browser's passkey dialog,
 * "Not now" closes the offer. Renders nothing on a provider without passkeys, for a user who has one, and
 * on a server (it lists the passkeys once mounted). Style it with `styles.css` and `account.css`.
 * @example
 * import { PasskeyOffer } from '@doorway/ui-cards/account';
 * {justSignedInWithPassword && !answered(uid) ? (
 *   <PasskeyOffer provider={provider} onAnswer={() => remember(uid)} />
 * ) : null}
 */
export function PasskeyOffer(props: PasskeyOfferProps) {
  const { provider, reauthenticate } = props;
  const { announce, region } = useAnnouncer();
  const env = useMemo((): AttemptEnv => ({ announce, reauthenticate }), [announce, reauthenticate]);
  if (!provider.capabilities.passkeys || provider.passkeys === undefined) return null;
  return (
    <AttemptContext.Provider value={env}>
      <Offer {...props} announce={announce} region={region} />
    </AttemptContext.Provider>
  );
}
