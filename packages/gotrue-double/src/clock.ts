/**
 * The double's time: simulated (a step per request or redirect followed) or, for a double serving a real app,
 * the wall clock (never backwards), either one moved ahead by `advance`.
 * @module
 */
import type { GoTrueDoubleOptions } from './types.ts';

/** The double's clock. */
export interface DoubleClock {
  now(): number;
  /** One step of time: a request, or a redirect followed. */
  tick(): void;
  /** Moves the time ahead (code expiry in tests). */
  advance(ms: number): void;
}

/** A clock starting at the later of `clock.start` (default now) and the saved state's time. */
export function createClock(options: GoTrueDoubleOptions): DoubleClock {
  let time = Math.max(options.clock?.start ?? Date.now(), options.state?.time ?? 0);
  const tickMs = options.clock?.tickMs ?? 1000;
  const wall = options.clock?.wall === true;
  /** How far `advance` has moved a wall clock ahead of the real one. */
  let skew = 0;
  return {
    now: () => time,
    tick() {
      time = wall ? Math.max(time, Date.now() + skew) : time + tickMs;
    },
    advance(ms: number) {
      time += ms;
      skew += ms;
    },
  };
}
