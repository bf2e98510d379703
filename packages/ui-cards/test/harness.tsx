/**
 * Renders cards on a real flow (`createFlow`) over the fake provider, with a hand-driven clock, and records
 * the events the cards send.
 */
import { createFakeProvider, type FakeProvider, type FakeProviderOptions } from '@doorway/adapter-fake';
import {
  type CardName,
  type Clock,
  createFlow,
  createMemoryStorage,
  type Flow,
  type FlowEvent,
  type KeyValueStorage,
  normalizeConfig,
  type WidgetConfig,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { expect } from 'vitest';
import { FlowRouter, loadCards, type UiEvent, useFlow, WidgetContext } from '../src/index.ts';

export const ORIGIN = 'https://app.example';
export const LOGIN = `${ORIGIN}/login`;

/** A clock whose timers fire only when the test advances it. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function createTestClock(start = Date.UTC(2026, 0, 1)): TestClock {
  let now = start;
  let next = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      next += 1;
      timers.set(next, { at: now + ms, fn });
      return next;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
  };
}

/** Lets provider promises (and React updates they cause) settle, over `rounds` turns of the task queue. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  }
}

export interface Opened {
  fake: FakeProvider;
  flow: Flow;
  config: WidgetConfig;
  storage: KeyValueStorage | null;
  clock: TestClock;
  navigated: string[];
  send(event: FlowEvent): Promise<void>;
  card(): CardName;
}

export interface OpenOptions {
  url?: string;
  fake?: FakeProvider;
  fakeOptions?: FakeProviderOptions;
  storage?: KeyValueStorage | null;
  clock?: TestClock;
  signOut?: boolean;
}

let ids = 0;

/** Starts a real flow on the fake provider (no React). */
export async function open(input: WidgetConfigInput, options: OpenOptions = {}): Promise<Opened> {
  const fake = options.fake ?? createFakeProvider(options.fakeOptions);
  const storage = options.storage === undefined ? createMemoryStorage() : options.storage;
  const clock = options.clock ?? createTestClock();
  const config = normalizeConfig(input, ORIGIN);
  const navigated: string[] = [];
  const flow = createFlow({
    provider: fake,
    config,
    url: options.url ?? LOGIN,
    storage,
    clock,
    createId: () => `sid-${++ids}`,
    navigate: (url) => navigated.push(url),
    signOut: options.signOut ?? false,
  });
  // Cards after the first come from the cards chunk: load it first, as a page does while its first card
  // shows, so that these tests see each card at once (widget.test.tsx and lazy.test.tsx check the loading).
  await loadCards();
  await settle();
  return {
    fake,
    flow,
    config,
    storage,
    clock,
    navigated,
    async send(event) {
      await act(async () => flow.send(event));
      await settle();
    },
    card: () => flow.getSnapshot().card,
  };
}

function Live(props: { flow: Flow; sent: UiEvent[] }) {
  const state = useFlow(props.flow);
  return (
    <div className="doorway" data-card={state.card}>
      <FlowRouter
        key={state.card}
        state={state}
        send={(event) => {
          props.sent.push(event);
          props.flow.send(event);
        }}
      />
    </div>
  );
}

/** Renders the flow's current card (and the ones after it) and records what the cards send. */
export function renderFlow(o: Opened) {
  const sent: UiEvent[] = [];
  const view = render(
    <WidgetContext.Provider value={{ config: o.config, getProvider: () => o.fake }}>
      <Live flow={o.flow} sent={sent} />
    </WidgetContext.Provider>,
  );
  const user = userEvent.setup();
  return {
    ...view,
    sent,
    user,
    /** The last event a card sent. */
    last: () => sent[sent.length - 1],
  };
}

/** Runs axe-core on a rendered card (colour contrast needs layout, which jsdom lacks: Playwright checks it). */
export async function expectNoAxeViolations(container: HTMLElement): Promise<void> {
  const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`)).toEqual([]);
}
