// Pure helpers of bench/journey.mjs: a journey's step times from its timestamps, their medians, the ratio
// Doorway/FirebaseUI, and the printed table. No I/O, so bench/journey-stats.test.ts checks them without a
// browser.
import { cell, ratio, summarize } from './first-card-stats.mjs';

/**
 * The steps of a journey, each from one timestamp to another (ms since the navigation to the sign-in
 * page started). The password journey ends signed in; the email-link one at its "check your email" card.
 */
export const STEPS = {
  password: [
    ['total', 'start', 'signedIn'],
    ['first card shown', 'start', 'chooserShown'],
    ['chooser click → email card', 'chooserClick', 'emailShown'],
    ['Next → password card', 'nextClick', 'passwordShown'],
    ['Sign in → signed in', 'signInClick', 'signedIn'],
  ],
  emailLink: [
    ['total', 'start', 'sentShown'],
    ['first card shown', 'start', 'chooserShown'],
    ['chooser click → email card', 'chooserClick', 'emailShown'],
    ['Next → email sent card', 'nextClick', 'sentShown'],
  ],
};

/**
 * One journey's step times: `{ [step]: ms }`, null for a step whose start or end is missing (the journey
 * stopped before it, or never got there).
 * @param {Record<string, number | null | undefined>} times timestamps of one journey
 * @param {'password' | 'emailLink'} kind
 * @returns {Record<string, number | null>}
 */
export function stepTimes(times, kind) {
  const finite = (v) => typeof v === 'number' && Number.isFinite(v);
  return Object.fromEntries(
    STEPS[kind].map(([step, from, to]) => [
      step,
      finite(times[from]) && finite(times[to]) ? times[to] - times[from] : null,
    ]),
  );
}

/**
 * The rows of one condition: per step, the summary of Doorway's and FirebaseUI's journeys and the ratio of
 * their medians (Doorway / FirebaseUI).
 * @param {{ ours: Record<string, number | null>[], theirs: Record<string, number | null>[] }} journeys step times
 * @param {'password' | 'emailLink'} kind
 */
export function stepRows({ ours, theirs }, kind) {
  return STEPS[kind].map(([step]) => {
    const o = summarize(ours.map((j) => j[step]));
    const t = summarize(theirs.map((j) => j[step]));
    return { step, ours: o, theirs: t, ratio: ratio(o.median, t.median) };
  });
}

const pad = (s, n) => String(s).padEnd(n);
const padl = (s, n) => String(s).padStart(n);
const col = (s, n) => ` ${padl(s, n - 1)}`;

/**
 * The table of one condition: a row per step (median (min–max) ms), columns Doorway, FirebaseUI and the
 * ratio of the medians; a journey that did not finish a step counts as missing there.
 * @param {{ label: string, kind: 'password' | 'emailLink', ours: Record<string, number | null>[], theirs: Record<string, number | null>[] }} condition
 * @returns {string[]} lines
 */
export function journeyTable(condition) {
  const lines = [
    condition.label,
    `  ${pad('ms, median (min–max)', 30)}${col('Doorway', 26)}${col('FirebaseUI 6.1.0', 26)}${col('ratio', 8)}`,
  ];
  for (const row of stepRows(condition, condition.kind)) {
    lines.push(
      `  ${pad(row.step, 30)}${col(cell(row.ours), 26)}${col(cell(row.theirs), 26)}` +
        `${col(Number.isFinite(row.ratio) ? row.ratio.toFixed(2) : '–', 8)}`,
    );
  }
  return lines;
}
