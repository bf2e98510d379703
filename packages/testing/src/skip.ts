/**
 * The `skip` option of {@link runProviderContract}: which tests a backend cannot pass, by group or test
 * title, and why. Every test it names is reported skipped with its reason; a title it gives that names no
 * test of the suite is an error (the suite's titles changed, or a typo), never a silent no-op.
 * @module
 */
import type { RunnerTask, RunnerTestSuite } from 'vitest';

/** What a test or group is skipped for, by title. */
export type ContractSkips = Readonly<Record<string, string>>;

/** The titles of `task` and of the groups around it, up to (not including) the suite `top`. */
function titlesOf(task: RunnerTask, top: RunnerTestSuite | undefined): string[] {
  const titles: string[] = [];
  for (let at: RunnerTask | undefined = task; at !== undefined && at !== top; at = at.suite) {
    titles.push(at.name);
  }
  return titles;
}

/** The first title `skips` gives among `task`'s own and its groups' (inside `top`), or `undefined`. */
function matchedTitle(skips: ContractSkips, task: RunnerTask, top: RunnerTestSuite | undefined) {
  return titlesOf(task, top).find((title) => Object.hasOwn(skips, title));
}

/**
 * The note a test is skipped with (`skipped: <reason>`), when `skips` names it or a group around it (inside
 * `top`, the suite's own `describe`); otherwise `undefined`.
 */
export function skipNote(
  skips: ContractSkips,
  task: RunnerTask,
  top: RunnerTestSuite | undefined,
): string | undefined {
  const title = matchedTitle(skips, task, top);
  return title === undefined ? undefined : `skipped: ${skips[title]}`;
}

/** Every test and group inside `suite`. */
function tasksIn(suite: RunnerTestSuite): RunnerTask[] {
  return suite.tasks.flatMap((task) => (task.type === 'suite' ? [task, ...tasksIn(task)] : [task]));
}

/** The titles `skips` gives that name no test or group inside `suite`. */
export function unknownSkips(skips: ContractSkips, suite: RunnerTestSuite): string[] {
  const titles = new Set(tasksIn(suite).map((task) => task.name));
  return Object.keys(skips).filter((title) => !titles.has(title));
}

/** The group titled `title` around `task` (the contract's own describe), or `undefined`. */
export function suiteTitled(task: RunnerTask, title: string): RunnerTestSuite | undefined {
  for (let at: RunnerTestSuite | undefined = task.suite; at !== undefined; at = at.suite) {
    if (at.name === title) return at;
  }
  return undefined;
}
