/**
 * `<PasskeyOffer>` (`@doorway/ui-cards/account`) on the fake provider with a software authenticator: the
 * offer for a user without passkeys (a labelled region), "Add a passkey" and "Not now" each answered once,
 * focused and said; nothing for a user who has a passkey or a provider without them; a dismissed dialog
 * keeps the offer with its message; axe-core on the offer and its results.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  PasskeyOffer,
  type PasskeyOfferAnswer,
  passkeyOfferText,
  passkeyText,
} from '../src/account/index.ts';
import { expectNoAxeViolations, settle } from './harness.tsx';
import { signedIn } from './passkeys.ts';

const offer = () => screen.getByRole('region', { name: passkeyOfferText.title });

describe('<PasskeyOffer>', () => {
  it('offers a passkey to a user without one; "Add a passkey" adds it, says so and answers once', async () => {
    const { fake, authenticator } = await signedIn();
    const answers: PasskeyOfferAnswer[] = [];
    const { container } = render(<PasskeyOffer provider={fake} onAnswer={(a) => answers.push(a)} />);
    await settle(8);
    expect(offer()).toBeTruthy();
    expect(screen.getByText(passkeyOfferText.intro)).toBeTruthy();
    await expectNoAxeViolations(container);

    await userEvent.setup().click(screen.getByRole('button', { name: passkeyText.add }));
    const done = await screen.findByText(passkeyOfferText.added, { selector: 'p' }, { timeout: 5000 });
    expect(document.activeElement).toBe(done);
    expect(screen.getByRole('status').textContent).toBe(passkeyOfferText.added);
    expect(screen.queryByRole('button')).toBeNull();
    expect(authenticator.credentials()).toHaveLength(1);
    expect(await fake.passkeys?.list()).toHaveLength(1);
    expect(answers).toEqual([
      { kind: 'added', passkey: expect.objectContaining({ id: expect.any(String) }) },
    ]);
    await expectNoAxeViolations(container);
  });

  it('"Not now" closes the offer with a focused note and answers declined', async () => {
    const { fake } = await signedIn();
    const onAnswer = vi.fn();
    render(<PasskeyOffer provider={fake} onAnswer={onAnswer} />);
    await settle(8);
    await userEvent.setup().click(screen.getByRole('button', { name: passkeyOfferText.notNow }));
    const note = screen.getByText(passkeyOfferText.declined, { selector: 'p' });
    expect(document.activeElement).toBe(note);
    expect(screen.getByRole('status').textContent).toBe(passkeyOfferText.declined);
    expect(onAnswer.mock.calls).toEqual([[{ kind: 'declined' }]]);
    expect(await fake.passkeys?.list()).toEqual([]);
  });

  it('a dismissed dialog keeps the offer and says why', async () => {
    const { fake, authenticator } = await signedIn();
    const onAnswer = vi.fn();
    render(<PasskeyOffer provider={fake} onAnswer={onAnswer} />);
    await settle(8);
    authenticator.cancelNext();
    await userEvent.setup().click(screen.getByRole('button', { name: passkeyText.add }));
    await settle(8);
    // Said once, by the move of focus to the error line (no live region repeats it).
    const [note, ...again] = screen.getAllByText(/^Please authorize the required permissions/);
    expect(again).toEqual([]);
    expect(document.activeElement).toBe(note);
    expect(screen.getByRole('button', { name: passkeyOfferText.notNow })).toBeTruthy();
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it('shows nothing to a user who has a passkey (answering has-passkey) or on a provider without them', async () => {
    const { fake } = await signedIn();
    await fake.passkeys?.add('Phone');
    const onAnswer = vi.fn();
    const { container } = render(<PasskeyOffer provider={fake} onAnswer={onAnswer} />);
    await settle(8);
    expect(container.innerHTML).toBe('');
    expect(onAnswer.mock.calls).toEqual([[{ kind: 'has-passkey' }]]);

    const without = render(<PasskeyOffer provider={{ capabilities: { passkeys: false } }} />);
    expect(without.container.innerHTML).toBe('');
  });
});
