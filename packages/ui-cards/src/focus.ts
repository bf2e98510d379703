/**
 * Where focus goes after each change of the widget, and the title it reports: a module of the cards chunk
 * (no change happens before the engine, which comes with it, is there).
 * @module
 */
import { cardTitle, type FlowState, messageFor } from '@doorway/auth-core';

/** What a widget (by its root element) showed when it last settled. */
interface Shown {
  view: string;
  error: FlowState['error'];
  title: string;
}

const shownBy = new WeakMap<HTMLElement, Shown>();

/**
 * After a render of the widget (`root`) on `state`: reports the page title to `onTitle` when it changed,
 * then moves focus (GOV.UK's pattern): to the field in error (or the card's error line) when an error
 * appears, to the new card's heading when the card changes, and to the heading when the control that had
 * focus was disabled for a call (it would drop focus to the page's `<body>`). An error is said once: by the
 * focus move (the field's description is the message), or, when focus is already there (Enter pressed in
 * the field), by the widget's one live region. The first call, on the card the widget opened on, only
 * reports its title: focus is the page's (or, in a server's render, its `autofocus`).
 */
export function settle(
  root: HTMLElement | null,
  state: FlowState,
  { onTitle }: { onTitle?: ((title: string) => void) | undefined },
): void {
  if (!root) return;
  const before = shownBy.get(root);
  const title = cardTitle(state);
  if (title !== before?.title) onTitle?.(title);
  // The chooser of tenants is a card of its own.
  const view = state.card + ('chooseTenant' in state && state.chooseTenant);
  shownBy.set(root, { view, error: state.error, title });
  if (!before) return;
  const changed = view !== before.view;
  const erred = state.error !== null && (changed || state.error !== before.error);
  const find = (selector: string) => root.querySelector<HTMLElement>(selector);
  const active = document.activeElement as HTMLButtonElement | null;
  const lost = state.pending && (!active || active === document.body || active.disabled);
  const target = erred
    ? (find('[aria-invalid=true]') ?? find('.doorway-error'))
    : changed || lost
      ? find('h1')
      : null;
  if (erred && target === active) {
    // Made on the first such error (an inserted `role="alert"` is said with its text), then reused.
    let live = find('.doorway-live');
    if (!live) {
      live = document.createElement('div');
      live.className = 'doorway-live doorway-sr-only';
      live.setAttribute('role', 'alert');
      root.append(live);
    }
    // A new text node: the same message again is said again.
    live.replaceChildren(messageFor(state.error));
  } else target?.focus();
}
