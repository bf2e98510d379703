/**
 * `@doorway/ui-cards`: Doorway's React sign-in widget. `<SignInWidget>` owns a flow and renders one
 * accessible component per card; `styles.css` themes it through `--doorway-*` custom properties.
 * @example
 * import { SignInWidget } from '@doorway/ui-cards';
 * import '@doorway/ui-cards/styles.css';
 * <SignInWidget config={{ signInOptions: ['email', 'phone', 'google.com'] }} provider={provider} />
 * @module
 */

export type { FirstCardName, LaterCardName } from './cardsChunk.tsx';
export {
  assertNever,
  type CardProps,
  type UiEvent,
  useWidget,
  WidgetContext,
  type WidgetEnv,
} from './context.ts';
export { type CardsChunk, loadCards, loadedCards } from './loadCards.ts';
export {
  FlowRouter,
  type FlowRouterProps,
  LAST_USED_KEY,
  SignInWidget,
  type SignInWidgetProps,
} from './SignInWidget.tsx';
export { useFlow } from './useFlow.ts';
