/**
 * The cards chunk: every card after the first one, and the flow engine behind them. `<SignInWidget>` starts
 * loading it when its flow starts; apps may call {@link loadCards} earlier (e.g. on hover of a sign-in link).
 * @module
 */

/** What the cards chunk exports. */
export type CardsChunk = typeof import('./cardsChunk.tsx');

let chunk: CardsChunk | null = null;
let loading: Promise<CardsChunk> | null = null;
let failed = false;

/** Loads the cards chunk once; later calls return the same promise. A failed load is tried again next call. */
export function loadCards(): Promise<CardsChunk> {
  if (!loading) {
    failed = false;
    loading = import('./cardsChunk.tsx').then(
      (c) => {
        chunk = c;
        return c;
      },
      (error: unknown) => {
        loading = null;
        failed = true;
        throw error;
      },
    );
  }
  return loading;
}

/** Whether the last load of the cards chunk failed (and none is under way). */
export function cardsFailed(): boolean {
  return failed;
}

/** The cards chunk if it has loaded, else `null`. */
export function loadedCards(): CardsChunk | null {
  return chunk;
}
