/**
 * What a screen reader says, step by step (issue 32): the widget driven by keyboard under
 * `@guidepup/virtual-screen-reader`, which speaks focus moves and live regions as they happen. Each test
 * asserts the phrases of each step in order, in English (the catalogue's only language).
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import { createMemoryStorage, messageFor, uiText, type WidgetConfigInput } from '@doorway/auth-core';
import { virtual } from '@guidepup/virtual-screen-reader';
import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCards, SignInWidget } from '../src/index.ts';
import { createTestClock, LOGIN, settle } from './harness.tsx';

const ANN = { email: 'ann@example.com', password: 'abc123' };
const ADA = {
  email: 'ada@example.com',
  password: 'secret1',
  secondFactors: [{ kind: 'totp', secret: 'JBSWY3DPEHPK3PXP' }],
};

async function speaking(config: WidgetConfigInput = { signInOptions: ['email'] }) {
  const fake = createFakeProvider({ users: [ANN, ADA as never] });
  const clock = createTestClock();
  const { container } = render(
    <SignInWidget
      config={config}
      provider={fake}
      url={LOGIN}
      storage={createMemoryStorage()}
      clock={clock}
      navigate={() => undefined}
    />,
  );
  await settle();
  await virtual.start({ container });
  // Where the reader starts (the first card's heading) is not part of the steps.
  let heard = (await virtual.spokenPhraseLog()).length;
  const user = userEvent.setup();
  return {
    fake,
    user,
    /** What was said since the last call. */
    async said(): Promise<string[]> {
      const log = await virtual.spokenPhraseLog();
      const since = log.slice(heard);
      heard = log.length;
      return since;
    },
  };
}

describe('spoken output', () => {
  beforeAll(() => loadCards());
  afterEach(async () => {
    await virtual.stop();
    cleanup();
  });

  it('sign-in with a wrong then the right password: the heading of each card, the error once', async () => {
    const s = await speaking();
    await s.user.tab();
    expect(await s.said()).toEqual([`textbox, ${uiText.emailLabel}`]);
    await s.user.keyboard(`${ANN.email}{Enter}`);
    await settle();
    expect(await s.said()).toEqual([`heading, ${uiText.passwordSignInTitle}, level 1`]);
    await s.user.keyboard('{Tab}{Tab}');
    expect(await s.said()).toEqual([
      `textbox, ${uiText.emailLabel}, ${ANN.email}, read only`,
      uiText.passwordLabel,
    ]);
    await s.user.keyboard('wrong1{Enter}');
    await settle();
    // Enter in the field leaves focus there: the live region says the message, once.
    expect(await s.said()).toEqual([`assertive: ${messageFor('wrong-password')}`]);
    await s.user.clear(document.activeElement as HTMLElement);
    await s.user.keyboard(`${ANN.password}{Enter}`);
    await settle();
    expect(await s.said()).toEqual([`heading, ${uiText.signedIn}, level 1`]);
  });

  it('a button pressed with an empty field: focus moves to the field, which says its error', async () => {
    const s = await speaking();
    await s.user.keyboard('{Tab}{Tab}');
    expect(await s.said()).toEqual([`textbox, ${uiText.emailLabel}`, `button, ${uiText.next}`]);
    await s.user.keyboard('{Enter}');
    await settle();
    expect(await s.said()).toEqual([
      `textbox, ${uiText.emailLabel}, ${messageFor('email-required')}, invalid`,
    ]);
  });

  it('password recovery: each card is announced by its heading', async () => {
    const s = await speaking();
    await s.user.tab();
    await s.user.keyboard(`${ANN.email}{Enter}`);
    await settle();
    await s.said();
    // Password, Sign in, Cancel, then "Trouble signing in?".
    await s.user.keyboard('{Tab}{Tab}{Tab}{Tab}{Tab}');
    // (The virtual reader also reads the button's `value`, the event it posts without scripts.)
    expect((await s.said()).at(-1)).toMatch(
      new RegExp(`^button, ${uiText.troubleSigningIn.replace('?', '\\?')}`),
    );
    await s.user.keyboard('{Enter}');
    await settle();
    expect(await s.said()).toEqual([`heading, ${uiText.passwordRecoveryTitle}, level 1`]);
    await s.user.tab();
    expect(await s.said()).toEqual([`textbox, ${uiText.emailLabel}, ${ANN.email}`]);
    await s.user.keyboard('{Enter}');
    await settle();
    expect(await s.said()).toEqual([`heading, ${uiText.recoveryEmailSentTitle}, level 1`]);
  });

  it('a second-factor code: a wrong code, then the right one', async () => {
    const s = await speaking();
    await s.user.tab();
    await s.user.keyboard(`${ADA.email}{Enter}`);
    await settle();
    await s.user.keyboard(`{Tab}{Tab}${ADA.password}{Enter}`);
    await settle();
    expect((await s.said()).at(-1)).toBe(`heading, ${uiText.secondFactorCodeTitle}, level 1`);
    await s.user.tab();
    expect(await s.said()).toEqual([`textbox, ${uiText.codeLabel}`]);
    await s.user.keyboard('000000{Enter}');
    await settle();
    expect(await s.said()).toEqual([`assertive: ${messageFor('invalid-verification-code')}`]);
    const uid = s.fake.backend.findUserByEmail(ADA.email)?.uid ?? '';
    await s.user.clear(document.activeElement as HTMLElement);
    await s.user.keyboard(`${s.fake.backend.totpCode(uid)}{Enter}`);
    await settle();
    expect(await s.said()).toEqual([`heading, ${uiText.signedIn}, level 1`]);
  });
});
