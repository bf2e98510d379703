/**
 * The resend countdown of the phone code step, as the phone sign-in card has it.
 * @module
 */
import { useCallback, useEffect, useState } from 'react';

/** Seconds left of a countdown from `seconds`, ticking once a second to 0, and a way to start it over. */
export function useCountdown(seconds: number): { left: number; restart: () => void } {
  const [left, setLeft] = useState(seconds);
  const running = left > 0;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const restart = useCallback(() => setLeft(seconds), [seconds]);
  return { left, restart };
}
