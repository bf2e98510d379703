/**
 * The list step: the signed-in user's second factors, each with a Remove button that asks in place before it
 * calls `unenroll`, and the buttons that add a factor of each kind the provider offers.
 * @module
 */
import type { SecondFactorInfo, SecondFactorKind } from '@doorway/auth-core';
import { Actions, Button, Spinner, Text } from '../parts.tsx';
import { type Attempt, errorsFor } from './attempt.ts';
import { useAccount } from './env.ts';
import { ErrorNote, Heading } from './parts.tsx';
import { RemovableItem } from './RemovableItem.tsx';
import { accountText } from './text.ts';

/** `+16505551234` → `+*******1234`: every digit but the last four hidden (a masked number stays as it is). */
export function maskPhone(phone: string): string {
  return phone.replace(/\d(?=(?:\D*\d){4})/g, '*');
}

function kindLabel(kind: SecondFactorKind): string {
  return kind === 'phone' ? accountText.kindPhone : accountText.kindTotp;
}

/** How a factor is named in buttons, questions and announcements: its name, else its kind (and number). */
export function factorName(factor: SecondFactorInfo): string {
  if (factor.displayName) return factor.displayName;
  return factor.phoneNumber
    ? `${kindLabel(factor.kind)} ${maskPhone(factor.phoneNumber)}`
    : kindLabel(factor.kind);
}

/** One factor: its name and kind, then Remove, confirmed in place before `unenroll`. */
function FactorItem(props: { factor: SecondFactorInfo; onRemoved: (factor: SecondFactorInfo) => void }) {
  const { factor, onRemoved } = props;
  const { ops } = useAccount();
  const phone = factor.phoneNumber ? maskPhone(factor.phoneNumber) : null;
  const detail = factor.displayName ? accountText.factorDetail(kindLabel(factor.kind), phone) : phone;
  return (
    <RemovableItem
      name={factorName(factor)}
      remove={() => ops.unenroll(factor.uid)}
      onRemoved={() => onRemoved(factor)}
    >
      <p className="doorway-factor-about">
        <span className="doorway-factor-name">{factor.displayName ?? kindLabel(factor.kind)}</span>
        {detail ? <span className="doorway-hint">{detail}</span> : null}
      </p>
    </RemovableItem>
  );
}

/** Props of {@link FactorList}. */
export interface FactorListProps {
  /** The factors, `null` while they load (or when loading failed: `load` shows why). */
  factors: readonly SecondFactorInfo[] | null;
  load: Attempt;
  onReload: () => void;
  kinds: readonly SecondFactorKind[];
  /** Focuses the heading when it changes to a number above 0 (not on the page's first render). */
  focusKey: number;
  onAdd: (kind: SecondFactorKind) => void;
  onRemoved: (factor: SecondFactorInfo) => void;
}

/** The list step. */
export function FactorList(props: FactorListProps) {
  const { factors, load } = props;
  return (
    <>
      <Heading focusKey={props.focusKey}>{accountText.title}</Heading>
      <Text>{accountText.intro}</Text>
      <noscript>
        <p className="doorway-error">{accountText.needsJavaScript}</p>
      </noscript>
      {factors === null ? (
        load.error ? (
          <ErrorNote message={errorsFor(load.error, []).card} attempt={load} onRetry={props.onReload} />
        ) : (
          <Spinner label={accountText.loading} />
        )
      ) : factors.length === 0 ? (
        <Text>{accountText.none}</Text>
      ) : (
        <ul className="doorway-factors" aria-label={accountText.yourFactors}>
          {factors.map((factor) => (
            <FactorItem key={factor.uid} factor={factor} onRemoved={props.onRemoved} />
          ))}
        </ul>
      )}
      <Actions>
        {props.kinds.includes('phone') ? (
          <Button type="button" secondary onClick={() => props.onAdd('phone')}>
            {accountText.addPhone}
          </Button>
        ) : null}
        {props.kinds.includes('totp') ? (
          <Button type="button" secondary onClick={() => props.onAdd('totp')}>
            {accountText.addTotp}
          </Button>
        ) : null}
      </Actions>
    </>
  );
}
