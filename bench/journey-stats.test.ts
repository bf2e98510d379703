import { describe, expect, it } from 'vitest';
import { journeyTable, STEPS, stepRows, stepTimes } from './journey-stats.mjs';

const passwordJourney = {
  start: 0,
  chooserShown: 800,
  chooserClick: 820,
  emailShown: 1300,
  nextClick: 2400,
  passwordShown: 2900,
  signInClick: 4000,
  signedIn: 5200,
};

describe('stepTimes', () => {
  it('splits a password journey into its total and its steps', () => {
    expect(stepTimes(passwordJourney, 'password')).toEqual({
      total: 5200,
      'first card shown': 800,
      'chooser click → email card': 480,
      'Next → password card': 500,
      'Sign in → signed in': 1200,
    });
  });

  it('ends an email-link journey at the email sent card', () => {
    const times = {
      start: 0,
      chooserShown: 500,
      chooserClick: 510,
      emailShown: 900,
      nextClick: 1500,
      sentShown: 2100,
    };
    expect(stepTimes(times, 'emailLink')).toEqual({
      total: 2100,
      'first card shown': 500,
      'chooser click → email card': 390,
      'Next → email sent card': 600,
    });
  });

  it('has no figure for a step the journey did not finish, nor a total', () => {
    const { signedIn: _, signInClick: __, ...stopped } = passwordJourney;
    const steps = stepTimes(stopped, 'password');
    expect(steps.total).toBeNull();
    expect(steps['Sign in → signed in']).toBeNull();
    expect(steps['Next → password card']).toBe(500);
  });

  it('names every step of both journeys, the total first', () => {
    expect(STEPS.password.map(([step]) => step)[0]).toBe('total');
    expect(STEPS.emailLink.map(([step]) => step)[0]).toBe('total');
  });
});

describe('stepRows', () => {
  it('gives each step the medians of both and the ratio Doorway / FirebaseUI', () => {
    const ours = [1000, 3000, 2000].map((total) => ({ total }));
    const theirs = [4000, 5000, 6000].map((total) => ({ total }));
    const total = stepRows({ ours, theirs }, 'password')[0];
    expect(total.step).toBe('total');
    expect(total.ours.median).toBe(2000);
    expect(total.theirs.median).toBe(5000);
    expect(total.ratio).toBe(0.4);
  });

  it('leaves out journeys that stopped early, and has no ratio without a figure on one side', () => {
    const rows = stepRows(
      { ours: [{ total: 1000 }, { total: null }, { total: 3000 }], theirs: [{ total: null }] },
      'password',
    );
    expect(rows[0].ours).toMatchObject({ median: 2000, n: 2, missing: 1 });
    expect(rows[0].ratio).toBeNaN();
  });
});

describe('journeyTable', () => {
  it('writes a row per step with median (min–max) and the ratio', () => {
    const ours = [
      stepTimes(passwordJourney, 'password'),
      stepTimes({ ...passwordJourney, signedIn: 6200 }, 'password'),
    ];
    const theirs = [stepTimes({ ...passwordJourney, signedIn: 11_400 }, 'password')];
    const lines = journeyTable({ label: 'Unthrottled, pasted', kind: 'password', ours, theirs });
    expect(lines[0]).toBe('Unthrottled, pasted');
    expect(lines).toHaveLength(2 + STEPS.password.length);
    expect(lines[2]).toMatch(/^ {2}total +5700 \(5200–6200\) +11400 \(11400–11400\) +0\.50$/);
    expect(lines[6]).toMatch(/^ {2}Sign in → signed in +1700 \(1200–2200\) +7400 \(7400–7400\) +0\.23$/);
  });

  it('marks the journeys that never got to a step', () => {
    const lines = journeyTable({
      label: 'Fast 3G',
      kind: 'emailLink',
      ours: [{ total: null }],
      theirs: [{ total: 2000 }],
    });
    expect(lines[2]).toMatch(/^ {2}total +– \[1 missing\] +2000 \(2000–2000\) +–$/);
  });
});
