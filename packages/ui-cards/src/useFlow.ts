import type { Flow, FlowState } from '@doorway/auth-core';
import { useMemo, useSyncExternalStore } from 'react';

const identity = <T>(s: T): T => s;

/**
 * Subscribes a component to a flow's snapshots (`useSyncExternalStore`), optionally through a selector.
 * The component re-renders only when the selected value changes according to `isEqual`.
 * @example const card = useFlow(flow, (s) => s.card);
 */
export function useFlow(flow: Flow): FlowState;
export function useFlow<T>(
  flow: Flow,
  selector: (state: FlowState) => T,
  isEqual?: (a: T, b: T) => boolean,
): T;
export function useFlow<T>(
  flow: Flow,
  selector: (state: FlowState) => T = identity as (state: FlowState) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): T {
  // Memoise per snapshot so an inline selector returning a fresh object does not loop.
  const getSelection = useMemo(() => {
    let last: { snapshot: FlowState; value: T } | null = null;
    return () => {
      const snapshot = flow.getSnapshot();
      if (last?.snapshot === snapshot) return last.value;
      const value = selector(snapshot);
      last = { snapshot, value: last && isEqual(last.value, value) ? last.value : value };
      return last.value;
    };
  }, [flow, selector, isEqual]);
  return useSyncExternalStore(flow.subscribe, getSelection, getSelection);
}
