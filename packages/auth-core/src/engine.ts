/**
 * The whole flow engine: every transition and every provider call. `createFlow` runs on it; the widget
 * loads it in the chunk after its first card.
 * @module
 */
import { execute } from './execute.ts';
import { type CreateFlowOptions, type Flow, type FlowEngine, runFlow } from './flow.ts';
import { transition } from './transition.ts';

/** The whole engine, for `createFlow` and `runFlow`. */
export const flowEngine: FlowEngine = { transition, execute };

/**
 * Creates a running flow on the whole engine and sends `START`.
 * @example
 * const flow = createFlow({ provider, config: normalizeConfig(input, location.origin), url: location.href });
 * flow.subscribe(() => render(flow.getSnapshot()));
 */
export function createFlow(options: CreateFlowOptions): Flow {
  return runFlow(options, flowEngine);
}
