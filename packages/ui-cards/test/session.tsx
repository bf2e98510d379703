/**
 * A person's session with the real `<SignInWidget>` on the fake provider: the provider is wrapped so every
 * asynchronous call it receives is logged (method and outcome), page loads are remounts on the same
 * storage, and steps are written as a person acts (fill fields by label, press buttons by name).
 */
import { createFakeProvider, type FakeProvider, type FakeProviderOptions } from '@doorway/adapter-fake';
import {
  type AuthProvider,
  createMemoryStorage,
  type KeyValueStorage,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { act, type RenderResult, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignInWidget } from '../src/index.ts';
import { createTestClock, LOGIN, settle, type TestClock } from './harness.tsx';

/** One asynchronous provider call as the widget made it. */
export interface CallRecord {
  method: string;
  /** The error code it rejected with, `null` while pending or once resolved. */
  error: string | null;
  settled: boolean;
}

/**
 * Wraps a provider so that every method returning a promise is logged. Synchronous methods
 * (`getCurrentUser`, `isSignInWithEmailLink`, `createCaptchaVerifier`) pass through unlogged.
 */
export function recordCalls<P extends AuthProvider>(provider: P): { provider: P; log: CallRecord[] } {
  const log: CallRecord[] = [];
  const wrapped = new Proxy(provider, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => {
        const out: unknown = value.apply(target, args);
        if (!(out instanceof Promise)) return out;
        const record: CallRecord = { method: prop, error: null, settled: false };
        log.push(record);
        return out.then(
          (result: unknown) => {
            record.settled = true;
            return result;
          },
          (error: unknown) => {
            record.settled = true;
            record.error = String((error as { code?: unknown }).code);
            throw error;
          },
        );
      };
    },
  });
  return { provider: wrapped, log };
}

export interface SessionOptions {
  config: WidgetConfigInput;
  fakeOptions?: FakeProviderOptions;
  /** Makes the storage of each device (default: in memory; `undefined`: the widget's own default). */
  createStorage?: () => KeyValueStorage | null | undefined;
}

export interface MountOptions {
  url?: string;
  /** Another device or browser: a fresh storage from now on. */
  newDevice?: boolean;
  signOut?: boolean;
}

export type Session = ReturnType<typeof createSession>;

let sids = 0;

// How long to wait for a lazily loaded card (the phone chunk) on a loaded machine; a bound, not a timing check.
export const WAIT = { timeout: 10_000 };

/** A fake provider, a logged wrapper around it, one storage and one clock for a run of page loads. */
export function createSession(options: SessionOptions) {
  const fake: FakeProvider = createFakeProvider(options.fakeOptions);
  const { provider, log } = recordCalls(fake);
  const clock: TestClock = createTestClock();
  const navigated: string[] = [];
  const createStorage = options.createStorage ?? createMemoryStorage;
  let storage = createStorage();
  let view: RenderResult | null = null;
  const user = userEvent.setup();

  const session = {
    fake,
    provider,
    log,
    clock,
    navigated,
    user,
    /** Loads the page (again): unmounts the widget, if any, and mounts a new one. */
    async mount(mountOptions: MountOptions = {}): Promise<void> {
      if (view) {
        view.unmount();
        view = null;
      }
      if (mountOptions.newDevice === true) storage = createStorage();
      const url = mountOptions.url ?? LOGIN;
      view = render(
        <SignInWidget
          config={options.config}
          provider={provider}
          url={url}
          storage={storage}
          clock={clock}
          navigate={(to) => navigated.push(to)}
          createId={() => `sid-${++sids}`}
          signOut={mountOptions.signOut === true}
        />,
      );
      await settle();
    },
    root(): HTMLElement {
      const el = view?.container.querySelector<HTMLElement>('.doorway');
      if (!el) throw new Error('no widget mounted');
      return el;
    },
    /** The card the widget shows (`data-card`). */
    card(): string | undefined {
      return session.root().dataset.card;
    },
    /** Text a sighted person sees: the widget without its screen-reader-only live region. */
    visibleText(): string {
      const clone = session.root().cloneNode(true) as HTMLElement;
      for (const el of clone.querySelectorAll('.doorway-sr-only')) el.remove();
      return clone.textContent ?? '';
    },
    async field(label: string): Promise<HTMLInputElement> {
      return (await screen.findByLabelText(label, {}, WAIT)) as HTMLInputElement;
    },
    /** Replaces a field's value as a person would (select all, paste). */
    async fill(label: string, value: string): Promise<void> {
      const input = await session.field(label);
      await user.clear(input);
      if (value !== '') await user.paste(value);
    },
    async press(name: string | RegExp): Promise<void> {
      await user.click(await screen.findByRole('button', { name }, WAIT));
      await settle();
    },
    /** Lets timers run on the widget's clock (resend countdown). */
    async advance(ms: number): Promise<void> {
      await act(async () => clock.advance(ms));
      await settle();
    },
    lastLink(to: string): string {
      const mail = fake.backend.outbox.lastEmail(to);
      if (!mail) throw new Error(`no email to ${to}`);
      return mail.link;
    },
  };
  return session;
}
