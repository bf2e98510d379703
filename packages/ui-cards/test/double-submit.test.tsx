/**
 * Double submit, on the real `<SignInWidget>`: for every button a person presses in every flow of the fault
 * matrix, a double click (and, on forms, a double Enter in the last field) while the provider is slow makes
 * one call, the card's buttons are disabled while it is in flight, and the flow still makes exactly its
 * declared calls. The last test checks that every form card which calls the provider was among them.
 */
import { messageFor, uiText } from '@doorway/auth-core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { doStep, expectEnd, FLOWS, type FlowSpec, start, valuesOf } from './flows.tsx';
import { settle } from './harness.tsx';
import { createSession, WAIT } from './session.tsx';

/** Form cards whose submit calls the provider: each must be double-submitted by some case below. */
const FORM_CARDS = [
  'emailEntry',
  'passwordSignIn',
  'passwordSignUp',
  'passwordRecovery',
  'phoneEntry',
  'phoneCode',
  'emailLinkConfirmation',
  'passwordLinking',
  'passwordReset',
] as const;

// Filled by the cases as they run (in file order); the coverage test at the end reads it, so it is meant to
// run with the whole file, not under a `-t` filter.
const covered = { click: new Set<string>(), enter: new Set<string>() };

type Mode = keyof typeof covered;

interface Case {
  flow: FlowSpec;
  step: number;
  press: string;
  mode: Mode;
}

const CASES: Case[] = FLOWS.flatMap((flow) =>
  flow.steps.flatMap((step, i) => {
    if (step.press === undefined) return [];
    const press = step.press;
    const modes: Mode[] = step.fill && step.fill.length > 0 ? ['click', 'enter'] : ['click'];
    return modes.map((mode) => ({ flow, step: i, press, mode }));
  }),
);

/** A fake whose calls wait, while held, until released. */
function slowProvider() {
  const waiting: (() => void)[] = [];
  return {
    sleep: () => new Promise<void>((resolve) => waiting.push(resolve)),
    release() {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

for (const { flow, step: at, press, mode } of CASES) {
  describe(`${flow.name}, step ${at} (${press}): double ${mode}`, () => {
    it('makes one call, disables the buttons while it is in flight, and the flow makes exactly its calls', async () => {
      const slow = slowProvider();
      const { s, ctx } = await start(flow, undefined, { sleep: slow.sleep });
      for (const [i, step] of flow.steps.entries()) {
        if (i !== at) {
          await doStep(s, ctx, step);
          continue;
        }
        for (const [label, value] of valuesOf(s, ctx, step)) await s.fill(label, value);
        const card = s.card() ?? '';
        const button = (await screen.findByRole('button', { name: press }, WAIT)) as HTMLButtonElement;
        const before = s.log.length;
        s.fake.backend.faults.set({ latencyMs: 1 });
        if (mode === 'click') await s.user.dblClick(button);
        else await s.user.keyboard('{Enter}{Enter}');
        const started = s.log.slice(before);
        expect(started.length).toBeLessThanOrEqual(1);
        if (started.length === 1) {
          covered[mode].add(card);
          if (button.isConnected) {
            expect(button.disabled).toBe(true);
            const enabled = [...s.root().querySelectorAll('button')].filter((b) => !b.disabled);
            expect(enabled.map((b) => b.textContent)).toEqual([]);
          } else {
            // Cards that wait on the spinner card (sign out) have no buttons left to press.
            expect(s.card()).toBe('spinner');
          }
        }
        s.fake.backend.faults.set({ latencyMs: 0 });
        slow.release();
        await settle();
        if (step.act) await step.act(s, ctx);
      }
      expectEnd(s, flow);
      expect(s.log.map((c) => c.method)).toEqual(flow.calls);
    });
  });
}

describe('double submit on the recoverable error card', () => {
  it('a double click on Retry retries once', async () => {
    const slow = slowProvider();
    const s = createSession({ config: { signInOptions: ['email'] }, fakeOptions: { sleep: slow.sleep } });
    const uid = s.fake.backend.createUser({ email: 'ann@example.com', password: 'abc123' });
    const link = s.fake.backend.sendVerificationEmail(uid, { url: 'https://app.example/action' }).link;
    s.fake.backend.faults.failNth('applyActionCode', 1, 'network-request-failed');
    await s.mount({ url: link });
    expect(s.card()).toBe('recoverableError');
    expect(s.visibleText()).toContain(messageFor('network-request-failed'));
    const before = s.log.length;
    s.fake.backend.faults.set({ latencyMs: 1 });
    await s.user.dblClick(screen.getByRole('button', { name: uiText.retry }));
    expect(s.log.slice(before).map((c) => c.method)).toEqual(['setTenant']);
    s.fake.backend.faults.set({ latencyMs: 0 });
    slow.release();
    await settle();
    expect(s.card()).toBe('emailVerificationSuccess');
    expect(s.log.slice(before).map((c) => c.method)).toEqual(['setTenant', 'applyActionCode']);
  });
});

describe('double submit coverage', () => {
  it('every form card that calls the provider was double-clicked and double-Entered', () => {
    expect(FORM_CARDS.filter((card) => !covered.click.has(card))).toEqual([]);
    expect(FORM_CARDS.filter((card) => !covered.enter.has(card))).toEqual([]);
  });
});
