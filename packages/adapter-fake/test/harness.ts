/**
 * Drives a real flow (`createFlow`) on the fake provider under vitest's fake timers.
 */
import {
  CARDS,
  type CardName,
  createFlow,
  createMemoryStorage,
  type Flow,
  type FlowEvent,
  type KeyValueStorage,
  normalizeConfig,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { expect, vi } from 'vitest';
import { createFakeProvider, type FakeProvider, type FakeProviderOptions } from '../src/index.ts';

export const ORIGIN = 'https://app.example';
export const LOGIN = `${ORIGIN}/login`;
export { CARDS };

export interface Harness {
  fake: FakeProvider;
  flow: Flow;
  storage: KeyValueStorage | null;
  navigated: string[];
  /** Sends an event and lets the provider settle. */
  send(event: FlowEvent): Promise<void>;
  /** Lets pending calls settle (microtasks and zero-delay timers). */
  settle(): Promise<void>;
  card(): CardName;
}

export interface OpenOptions {
  url?: string;
  fake?: FakeProvider;
  fakeOptions?: FakeProviderOptions;
  storage?: KeyValueStorage | null;
  signOut?: boolean;
  settle?: boolean;
}

let ids = 0;

/** Opens the widget on a page URL with a config, on a fresh (or given) fake provider. */
export async function open(input: WidgetConfigInput, options: OpenOptions = {}): Promise<Harness> {
  const fake = options.fake ?? createFakeProvider(options.fakeOptions);
  const storage = options.storage === undefined ? createMemoryStorage() : options.storage;
  const navigated: string[] = [];
  const flow = createFlow({
    provider: fake,
    config: normalizeConfig(input, ORIGIN),
    url: options.url ?? LOGIN,
    storage,
    createId: () => `sid-${++ids}`,
    navigate: (url) => navigated.push(url),
    signOut: options.signOut ?? false,
  });
  const settle = async () => {
    for (let i = 0; i < 20; i++) await vi.advanceTimersByTimeAsync(0);
  };
  const h: Harness = {
    fake,
    flow,
    storage,
    navigated,
    settle,
    async send(event) {
      flow.send(event);
      await settle();
    },
    card: () => flow.getSnapshot().card,
  };
  if (options.settle !== false) await settle();
  return h;
}

/** Asserts the card and that nothing is in flight. */
export function expectCard(h: Harness, card: CardName): void {
  const s = h.flow.getSnapshot();
  expect(s.card, `error: ${s.error}`).toBe(card);
  expect(s.pending).toBeNull();
}
