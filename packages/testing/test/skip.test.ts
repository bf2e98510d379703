import type { RunnerTask, RunnerTestSuite } from 'vitest';
import { describe, expect, it } from 'vitest';
import { skipNote, unknownSkips } from '../src/skip.ts';

/** A suite tree as vitest collects it: `top` (the contract's describe) › group › test, plus a loose test. */
function tree() {
  const suite = (name: string, parent?: RunnerTestSuite) =>
    ({ type: 'suite', name, suite: parent, tasks: [] }) as unknown as RunnerTestSuite;
  const test = (name: string, parent: RunnerTestSuite) => {
    const task = { type: 'test', name, suite: parent } as unknown as RunnerTask;
    parent.tasks.push(task);
    return task;
  };
  const top = suite('adapter-x — AuthProvider contract');
  const group = suite('anonymous (capability: anonymous)', top);
  top.tasks.push(group);
  const upgrade = test('linkWithCredential - should upgrade', group);
  const anonymous = test('signInAnonymously - should sign in', group);
  const loose = test('signOut - should clear the current user', top);
  return { top, upgrade, anonymous, loose };
}

describe('skip', () => {
  it('skipNote - should give the reason of a test named by its own title', () => {
    const { top, upgrade, anonymous } = tree();
    const skips = { 'linkWithCredential - should upgrade': 'the server holds no anonymous session' };
    expect(skipNote(skips, upgrade, top)).toBe('skipped: the server holds no anonymous session');
    expect(skipNote(skips, anonymous, top)).toBeUndefined();
  });

  it('skipNote - should give the reason to every test of a group named by its title', () => {
    const { top, upgrade, anonymous, loose } = tree();
    const skips = { 'anonymous (capability: anonymous)': 'browser only' };
    expect(skipNote(skips, upgrade, top)).toBe('skipped: browser only');
    expect(skipNote(skips, anonymous, top)).toBe('skipped: browser only');
    expect(skipNote(skips, loose, top)).toBeUndefined();
  });

  it('skipNote - should not match the title of the suite itself', () => {
    const { top, loose } = tree();
    expect(skipNote({ 'adapter-x — AuthProvider contract': 'all' }, loose, top)).toBeUndefined();
  });

  it('unknownSkips - should list the titles that name no test or group', () => {
    const { top } = tree();
    const skips = {
      'anonymous (capability: anonymous)': 'a group',
      'signOut - should clear the current user': 'a test',
      'signOut - should clear the user': 'a typo',
    };
    expect(unknownSkips(skips, top)).toEqual(['signOut - should clear the user']);
    expect(unknownSkips({}, top)).toEqual([]);
  });
});
