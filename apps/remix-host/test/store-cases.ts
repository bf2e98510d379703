/**
 * What every store behind the host's store interfaces must do, as case lists run against each store (in
 * memory, in Redis): the throttle's counters ({@link CounterStore}) and the passkey server's waiting
 * challenges ({@link PasskeyChallengeStore}). A store is given with its clock: the memory stores run on a
 * clock the cases move, Redis on the real one (its keys expire on Redis's own clock).
 */
import type { PasskeyChallenge, PasskeyChallengeStore } from '@doorway/adapter-firebase/server';
import { expect, it } from 'vitest';
import type { CounterStore } from '../app/throttle-store.server.ts';

/** A store under test, and the clock it runs on. */
export interface StoreHarness<S> {
  /** A fresh store (nothing counted, nothing waiting). */
  make(): S;
  /** The store's clock. */
  now(): number;
  /** Lets `ms` pass on the store's clock. */
  pass(ms: number): Promise<void>;
  /** A window short enough to let pass in a case. */
  shortMs: number;
  /**
   * How far a counter's end may be reported off between two reads (0 in memory; with Redis the end is
   * the time left, read a reply's trip later).
   */
  slackMs: number;
}

const MINUTE = 60_000;

/** The counter-store cases, as `it`s of the calling `describe`. */
export function counterStoreCases(h: StoreHarness<CounterStore>): void {
  /** `hit`, with the store's clock read around it. */
  const timedHit = async (store: CounterStore, key: string, windowMs: number) => {
    const before = h.now();
    const counter = await store.hit(key, windowMs);
    return { counter, before, after: h.now() };
  };

  it('reads a counter that never was as none', async () => {
    expect(await h.make().get('never')).toBeNull();
  });

  it('counts hits in a window, each ending when the first one’s window ends', async () => {
    const store = h.make();
    const first = await timedHit(store, 'k', MINUTE);
    expect(first.counter.count).toBe(1);
    expect(first.counter.resetAt).toBeGreaterThanOrEqual(first.before + MINUTE - h.slackMs);
    expect(first.counter.resetAt).toBeLessThanOrEqual(first.after + MINUTE);
    const second = await store.hit('k', MINUTE);
    expect(second.count).toBe(2);
    expect(Math.abs(second.resetAt - first.counter.resetAt)).toBeLessThanOrEqual(h.slackMs);
    const read = await store.get('k');
    expect(read?.count).toBe(2);
    expect(Math.abs((read?.resetAt ?? 0) - first.counter.resetAt)).toBeLessThanOrEqual(h.slackMs);
  });

  it('never moves a window’s end, whatever window a later hit asks for', async () => {
    const store = h.make();
    const first = await store.hit('k', MINUTE);
    const later = await store.hit('k', 10 * MINUTE);
    expect(later.count).toBe(2);
    expect(Math.abs(later.resetAt - first.resetAt)).toBeLessThanOrEqual(h.slackMs);
  });

  it('ends a counter with its window, and starts it again at 1', async () => {
    const store = h.make();
    await store.hit('k', h.shortMs);
    await h.pass(h.shortMs);
    expect(await store.get('k')).toBeNull();
    const again = await timedHit(store, 'k', MINUTE);
    expect(again.counter.count).toBe(1);
    expect(again.counter.resetAt).toBeGreaterThanOrEqual(again.before + MINUTE - h.slackMs);
  });

  it('forgets a counter on reset', async () => {
    const store = h.make();
    await store.hit('k', MINUTE);
    await store.hit('k', MINUTE);
    await store.reset('k');
    expect(await store.get('k')).toBeNull();
    expect((await store.hit('k', MINUTE)).count).toBe(1);
    await store.reset('never');
  });

  it('keeps counters apart, whatever their keys hold', async () => {
    const store = h.make();
    const keys = [
      'failures:203.0.113.9',
      'account-failures:ada@example.com',
      'account-client-failures:ada@example.com\n203.0.113.9',
      'failures:2001:db8:1:2::/64',
      'requests:ünïcode',
    ];
    for (const [i, key] of keys.entries()) {
      for (let n = 0; n <= i; n++) await store.hit(key, MINUTE);
    }
    for (const [i, key] of keys.entries()) expect((await store.get(key))?.count).toBe(i + 1);
  });

  it('counts every one of many hits at once (none lost, none counted twice)', async () => {
    const store = h.make();
    const counts = await Promise.all(Array.from({ length: 40 }, () => store.hit('burst', MINUTE)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect((await store.get('burst'))?.count).toBe(40);
  });
}

/** A challenge of `kind` for `uid`, expiring at `expiresAt`. */
export function challengeFor(
  kind: PasskeyChallenge['kind'],
  uid: string | null,
  expiresAt: number,
): PasskeyChallenge {
  return { kind, challenge: `challenge-${kind}-${uid ?? 'anyone'}-${expiresAt}`, uid, expiresAt };
}

/** The challenge-store cases, as `it`s of the calling `describe`. */
export function challengeStoreCases(h: StoreHarness<PasskeyChallengeStore>): void {
  it('gives nothing for an unknown id', async () => {
    expect(await h.make().take('unknown')).toBeNull();
  });

  it('gives each challenge once, with the kind and user it was put for', async () => {
    const store = h.make();
    const registration = challengeFor('registration', 'uid-ada', h.now() + 5 * MINUTE);
    const authentication = challengeFor('authentication', null, h.now() + 5 * MINUTE);
    await store.put('reg', registration);
    await store.put('auth', authentication);
    expect(await store.take('auth')).toEqual(authentication);
    expect(await store.take('reg')).toEqual(registration);
    expect(await store.take('reg')).toBeNull();
    expect(await store.take('auth')).toBeNull();
  });

  it('gives a challenge taken many times at once to one taker only', async () => {
    const store = h.make();
    const waiting = challengeFor('authentication', null, h.now() + 5 * MINUTE);
    await store.put('raced', waiting);
    const taken = await Promise.all(Array.from({ length: 20 }, async () => store.take('raced')));
    expect(taken.filter((t) => t !== null)).toEqual([waiting]);
  });

  it('never gives an expired challenge as a live one', async () => {
    const store = h.make();
    await store.put('old', challengeFor('authentication', null, h.now() + h.shortMs));
    await h.pass(h.shortMs);
    // The memory store may hand it back expired (the passkey server checks `expiresAt`); none is fine too.
    const got = await store.take('old');
    expect(got === null || got.expiresAt <= h.now()).toBe(true);
  });
}
