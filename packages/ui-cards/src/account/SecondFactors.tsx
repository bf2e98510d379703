/**
 * `<SecondFactors>`: the signed-in user's second factors, for an account page. One step shows at a time:
 * the list (with Remove), adding a text-message factor, or adding an authenticator app. Results and errors
 * are said in a polite live region; focus moves to each step's heading.
 * @module
 */
import type { SecondFactorInfo, SecondFactorKind } from '@doorway/auth-core';
import { useCallback, useMemo, useRef, useState } from 'react';
import { Text } from '../parts.tsx';
import { AddPhone } from './AddPhone.tsx';
import { AddTotp } from './AddTotp.tsx';
import { useAttempt } from './attempt.ts';
import { AccountContext, type AccountEnv, type AccountProvider, AttemptContext, useAccount } from './env.ts';
import { FactorList, factorName } from './FactorList.tsx';
import { Heading, useAnnouncer, useOnce } from './parts.tsx';
import { accountText } from './text.ts';

/** Props of {@link SecondFactors}. */
export interface SecondFactorsProps {
  /** The provider the user is signed in with; its `capabilities.secondFactors` says which kinds to offer. */
  provider: AccountProvider;
  /** Called with the user's factors after each one added or removed. */
  onChange?: (factors: readonly SecondFactorInfo[]) => void;
  /**
   * Signs the user in again (e.g. opens your sign-in dialog) and resolves once they have. When given, a
   * `requires-recent-login` failure offers "Sign in again": it awaits this, then retries the operation in
   * place. Reject to leave things as they are.
   */
  reauthenticate?: () => Promise<void>;
}

/** Which step shows; `focus` counts the moves, so that each one focuses the new step's heading. */
type View = { step: 'list' | SecondFactorKind; focus: number };

/** The steps, once the provider is known to offer `kinds`. */
function Steps(props: { kinds: readonly SecondFactorKind[]; onChange: SecondFactorsProps['onChange'] }) {
  const { ops, announce } = useAccount();
  // The latest callback, so that a host's inline function does not count as a change.
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const [view, setView] = useState<View>({ step: 'list', focus: 0 });
  const [factors, setFactors] = useState<readonly SecondFactorInfo[] | null>(null);
  const load = useAttempt();
  const { run } = load;

  const reload = useCallback(
    (notify: boolean) =>
      void run(async () => {
        const list = await ops.list();
        setFactors(list);
        if (notify) onChange.current?.(list);
        return null;
      }),
    [run, ops],
  );
  useOnce(useCallback(() => reload(false), [reload]));

  const show = (step: View['step']) => setView((v) => ({ step, focus: v.focus + 1 }));
  const changed = (next: readonly SecondFactorInfo[] | null, said: string) => {
    // Not loaded yet (it failed): load again, the change included.
    if (next === null) reload(true);
    else {
      setFactors(next);
      onChange.current?.(next);
    }
    announce(said);
  };
  const added = (factor: SecondFactorInfo) => {
    changed(factors ? [...factors, factor] : null, accountText.added(factorName(factor)));
    show('list');
  };
  // Focus stays in the list: the item's Remove moved it to the next item or the heading.
  const removed = (factor: SecondFactorInfo) =>
    changed(
      factors ? factors.filter((f) => f.uid !== factor.uid) : null,
      accountText.removed(factorName(factor)),
    );

  if (view.step === 'phone') return <AddPhone onDone={added} onCancel={() => show('list')} />;
  if (view.step === 'totp') return <AddTotp onDone={added} onCancel={() => show('list')} />;
  return (
    <FactorList
      factors={factors}
      load={load}
      onReload={() => reload(false)}
      kinds={props.kinds}
      focusKey={view.focus}
      onAdd={show}
      onRemoved={removed}
    />
  );
}

/**
 * The signed-in user's second factors, with Remove, "Add text-message (SMS) factor" and "Add authenticator
 * app" for the kinds `provider.capabilities.secondFactors` lists (none: a short note, nothing else).
 * Renders on a server (the list loads once mounted); style it with `styles.css` and `account.css`.
 * @example
 * import { SecondFactors } from '@doorway/ui-cards/account';
 * <SecondFactors provider={provider} reauthenticate={() => openSignInDialog()} />
 */
export function SecondFactors(props: SecondFactorsProps) {
  const { provider, reauthenticate, onChange } = props;
  const { announce, region } = useAnnouncer();
  const env = useMemo((): AccountEnv | null => {
    const ops = provider.secondFactors;
    return ops ? { provider, ops, announce, reauthenticate } : null;
  }, [provider, announce, reauthenticate]);
  const kinds = provider.capabilities.secondFactors ?? [];
  return (
    <div className="doorway doorway-account">
      {env && kinds.length > 0 ? (
        <AttemptContext.Provider value={env}>
          <AccountContext.Provider value={env}>
            <Steps kinds={kinds} onChange={onChange} />
          </AccountContext.Provider>
        </AttemptContext.Provider>
      ) : (
        <>
          <Heading focusKey={0}>{accountText.title}</Heading>
          <Text>{accountText.unavailable}</Text>
        </>
      )}
      {region}
    </div>
  );
}
