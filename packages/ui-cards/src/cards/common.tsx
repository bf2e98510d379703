/**
 * The parts several later cards are made of: their fields, the Cancel button, and the shapes of card they
 * share. A module of the cards chunk: the first cards write theirs out, so that none of this weighs on the
 * first chunk.
 * @module
 */
import {
  type CardName,
  formatCountdown,
  RESEND_COUNTDOWN_SECONDS,
  type StateOf,
  uiText,
} from '@doorway/auth-core';
import { type ComponentProps, type ComponentType, type ReactElement, type ReactNode, useState } from 'react';
import type { CardProps, UiEvent } from '../context.ts';
import {
  Actions,
  Button,
  Card,
  CardError,
  type EventType,
  errorsFor,
  Field,
  Form,
  fieldValue,
  NeedsScripts,
  Text,
} from '../parts.tsx';

/** What a card with a form reads of its state: the error to show, and whether a call is in flight. */
type FormState = Pick<StateOf<'emailMismatch'>, 'error' | 'pending'>;

/** The email field of a card's form (named `email`, as the events that carry it). */
export function EmailField(props: { defaultValue: string; error: string | undefined }) {
  return (
    <Field
      label={uiText.emailLabel}
      type="email"
      name="email"
      autoComplete="email"
      spellCheck={false}
      defaultValue={props.defaultValue}
      error={props.error}
    />
  );
}

/** The password field: the account's current one, or (`isNew`) a new one with the password rules as hint. */
export function PasswordField(props: { isNew?: boolean; error: string | undefined }) {
  return (
    <Field
      label={props.isNew ? uiText.newPasswordLabel : uiText.passwordLabel}
      type="password"
      name="password"
      autoComplete={props.isNew ? 'new-password' : 'current-password'}
      hint={props.isNew ? uiText.passwordHint : undefined}
      error={props.error}
    />
  );
}

/** The field of a texted or app-generated 6-digit code (named `code`, as the events that carry it). */
export function CodeField(props: { error: string | undefined }) {
  return (
    <Field
      label={uiText.codeLabel}
      type="text"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      error={props.error}
    />
  );
}

/**
 * "Resend code in 0:NN", then (at zero) the Resend button sending `RESEND_CODE`. A polite live region says
 * only the start of a countdown (after Resend) and its end, not every second.
 */
export function ResendLine(props: { resendIn: number; pending: boolean }) {
  const { resendIn } = props;
  const text = uiText.resendIn(formatCountdown(resendIn));
  // Whether a countdown has ended on this card: the one shown with the card is read with it, not said.
  const [ended, setEnded] = useState(false);
  if (!resendIn && !ended) setEnded(true);
  return (
    <>
      <p className="doorway-resend">
        {resendIn > 0 ? (
          text
        ) : (
          <Button link event="RESEND_CODE" disabled={props.pending}>
            {uiText.resend}
          </Button>
        )}
      </p>
      <p className="doorway-sr-only" aria-live="polite">
        {!resendIn ? uiText.resendReady : ended && resendIn === RESEND_COUNTDOWN_SECONDS ? text : ''}
      </p>
    </>
  );
}

/** The secondary button that sends `CANCEL`, labelled Cancel unless told otherwise. */
export function CancelButton(props: { pending: boolean; children?: ReactNode }) {
  return (
    <Button secondary event="CANCEL" disabled={props.pending}>
      {props.children ?? uiText.cancel}
    </Button>
  );
}

/** The events of the forms of one field. */
type OneFieldEvent =
  | 'CONFIRM_EMAIL'
  | 'SUBMIT_RECOVERY'
  | 'SUBMIT_PASSWORD'
  | 'SUBMIT_NEW_PASSWORD'
  | 'SUBMIT_CODE';

/**
 * The props of a card's form of one field (`<Form {...oneField(…)}>`): its event carries what the field named
 * `field` holds. Props, not a component around `Form`: that would nest the fields a level deeper and so
 * change the ids React gives them, which the forms a server rendered keep.
 */
export function oneField<E extends OneFieldEvent>(
  event: E,
  field: Exclude<keyof Extract<UiEvent, { type: E }>, 'type'> & string,
  send: (event: UiEvent) => void,
  pending: boolean,
): Omit<ComponentProps<typeof Form>, 'children'> {
  return {
    event,
    send,
    pending,
    // The field is the event's one property besides its type (as `field`'s type says).
    submit: (form) => ({ type: event, [field]: fieldValue(form, field) }) as UiEvent,
  };
}

/** A card asking for an email address: its text, the email field, the primary button `action`, Cancel. */
export function EmailCard(props: {
  title: string;
  text: string;
  event: 'CONFIRM_EMAIL' | 'SUBMIT_RECOVERY';
  action: string;
  state: FormState & { email: string };
  send: (event: UiEvent) => void;
}) {
  const { event, state } = props;
  const errors = errorsFor(state.error, ['email']);
  const pending = state.pending !== null;
  return (
    <Card title={props.title}>
      <Text>{props.text}</Text>
      <Form {...oneField(event, 'email', props.send, pending)}>
        <CardError message={errors.card} />
        <EmailField defaultValue={state.email} error={errors.email} />
        <Actions>
          <Button disabled={pending}>{props.action}</Button>
          <CancelButton pending={pending} />
        </Actions>
      </Form>
    </Card>
  );
}

/**
 * A card that asks to go on one way: its text and error, then the primary button `action` (sending `event`)
 * and a way back (`cancel`, default Cancel). `needsScripts` when going on opens an identity provider.
 */
export function ConfirmCard(props: {
  title: string;
  text: string;
  event: EventType;
  action: string;
  cancel?: string;
  needsScripts?: boolean;
  state: FormState;
  send: (event: UiEvent) => void;
}) {
  const pending = props.state.pending !== null;
  return (
    <Card title={props.title}>
      <Text>{props.text}</Text>
      <CardError message={errorsFor(props.state.error, []).card} />
      {props.needsScripts ? <NeedsScripts /> : null}
      <Form event={props.event} send={props.send} pending={pending}>
        <Actions>
          <Button disabled={pending}>{props.action}</Button>
          <CancelButton pending={pending}>{props.cancel}</CancelButton>
        </Actions>
      </Form>
    </Card>
  );
}

/**
 * The component of a card that says its `title` and `text`, then shows `Footer` (its one-button form) when
 * it has one: the cards that report how something ended.
 */
export function textCard<C extends CardName>(
  title: string,
  text: string,
  Footer?: ComponentType<CardProps<C>>,
): (props: CardProps<C>) => ReactElement {
  return (props) => (
    <Card title={title}>
      <Text>{text}</Text>
      {Footer ? <Footer {...props} /> : null}
    </Card>
  );
}
