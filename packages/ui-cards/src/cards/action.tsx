/**
 * The one-button form of the cards after the first ones, in a module of its own so that it loads with them
 * (the cards chunk), not with the first card.
 * @module
 */
import type { ReactNode } from 'react';
import type { UiEvent } from '../context.ts';
import { Actions, Button, type EventType, Form } from '../parts.tsx';

/** A form with one button: `event` is what it sends. */
export function Action(props: {
  event: EventType;
  send: (event: UiEvent) => void;
  children: ReactNode;
  secondary?: boolean;
  pending?: boolean;
}) {
  return (
    <Form event={props.event} send={props.send} pending={props.pending}>
      <Actions>
        <Button secondary={props.secondary} disabled={props.pending}>
          {props.children}
        </Button>
      </Actions>
    </Form>
  );
}
