/**
 * One item of an account card's list (a second factor, a passkey): what it is, then Remove, which asks in
 * place ("Remove …?") before it calls `remove`, focus following the question in and back out.
 * @module
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Actions, Button } from '../parts.tsx';
import { errorsFor, useAttempt } from './attempt.ts';
import { ErrorNote } from './parts.tsx';
import { accountText } from './text.ts';

/** Props of {@link RemovableItem}. */
export interface RemovableItemProps {
  /** How the item is named in the Remove button's accessible name and in the question. */
  name: string;
  /** What the item is: its name line and details. */
  children: ReactNode;
  /** Removes it; resolves once it is gone. */
  remove: () => Promise<void>;
  onRemoved: () => void;
}

/** A list item with Remove, confirmed in place. */
export function RemovableItem(props: RemovableItemProps) {
  const { name, remove, onRemoved } = props;
  const attempt = useAttempt();
  const [confirming, setConfirming] = useState(false);
  const moved = useRef(false);
  const questionRef = useRef<HTMLParagraphElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const itemRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    // Focus follows the question in and back out (never on the first render).
    if (moved.current) (confirming ? questionRef : removeRef).current?.focus();
  }, [confirming]);
  const ask = (value: boolean) => {
    moved.current = true;
    attempt.clear();
    setConfirming(value);
  };
  const confirm = () =>
    attempt.run(async () => {
      await remove();
      // Focus goes on to the next item's Remove, else to the list's heading, not to <body> with the item.
      const item = itemRef.current;
      const next = item?.nextElementSibling?.querySelector('button');
      (next ?? item?.closest('.doorway-account')?.querySelector('h2'))?.focus();
      onRemoved();
      return null;
    });
  return (
    <li className="doorway-factor" ref={itemRef}>
      {props.children}
      {confirming ? (
        <div className="doorway-confirm" ref={attempt.scope}>
          <p ref={questionRef} tabIndex={-1} className="doorway-text">
            {accountText.removeQuestion(name)}
          </p>
          <ErrorNote message={errorsFor(attempt.error, []).card} attempt={attempt} />
          <Actions>
            <Button type="button" disabled={attempt.pending} onClick={() => void confirm()}>
              {accountText.confirmRemove}
            </Button>
            <Button type="button" secondary disabled={attempt.pending} onClick={() => ask(false)}>
              {accountText.keep}
            </Button>
          </Actions>
        </div>
      ) : (
        <Button type="button" secondary buttonRef={removeRef} onClick={() => ask(true)}>
          {accountText.remove}
          <span className="doorway-sr-only"> {name}</span>
        </Button>
      )}
    </li>
  );
}
