// Pure helpers of bench/first-card.mjs: summaries of the measured loads, the printed table and the budget
// verdict. No I/O, so bench/first-card.test.ts checks them without a browser.

/**
 * Median of `values` (the mean of the two middle values for an even count); NaN for none.
 * @param {readonly number[]} values
 * @returns {number}
 */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Median, min, max and count of the finite values among `values` (a load that never reported one is
 * left out, and `missing` counts it).
 * @param {readonly (number | null | undefined)[]} values
 * @returns {{ median: number, min: number, max: number, n: number, missing: number }}
 */
export function summarize(values) {
  const finite = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  return {
    median: median(finite),
    min: finite.length ? Math.min(...finite) : Number.NaN,
    max: finite.length ? Math.max(...finite) : Number.NaN,
    n: finite.length,
    missing: values.length - finite.length,
  };
}

/**
 * `ours / theirs` of two medians; NaN when either is missing or theirs is 0.
 * @param {number} ours
 * @param {number} theirs
 */
export function ratio(ours, theirs) {
  return Number.isFinite(ours) && Number.isFinite(theirs) && theirs > 0 ? ours / theirs : Number.NaN;
}

/**
 * The budget: our first usable card at most `factor` × FirebaseUI's `uiShown`, medians of one condition.
 * @param {number} ours median first usable card, ms
 * @param {number} theirs median uiShown, ms
 * @param {number} factor
 * @returns {'PASS' | 'FAIL'}
 */
export function budgetVerdict(ours, theirs, factor) {
  const r = ratio(ours, theirs);
  return Number.isFinite(r) && r <= factor ? 'PASS' : 'FAIL';
}

const ms = (n) => (Number.isFinite(n) ? n.toFixed(0) : '–');
const pad = (s, n) => String(s).padEnd(n);
const padl = (s, n) => String(s).padStart(n);
// A right-aligned column that never runs into the one before it.
const col = (s, n) => ` ${padl(s, n - 1)}`;

/**
 * One cell: `median (min–max)` in ms (`–` without figures), with the count of loads that reported nothing.
 * @param {{ median: number, min: number, max: number, missing: number }} s
 */
export function cell(s) {
  const text = Number.isFinite(s.median) ? `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})` : '–';
  return s.missing > 0 ? `${text} [${s.missing} missing]` : text;
}

/**
 * The table of one condition: rows "first usable card / uiShown" and "first contentful paint", columns
 * Doorway, FirebaseUI and the ratio of the medians.
 * @param {{ label: string, ours: { usable: number[], fcp: number[] }, theirs: { uiShown: number[], fcp: number[] } }} condition
 * @returns {string[]} lines
 */
export function conditionTable(condition) {
  const rows = [
    ['first usable card / uiShown', summarize(condition.ours.usable), summarize(condition.theirs.uiShown)],
    ['first contentful paint', summarize(condition.ours.fcp), summarize(condition.theirs.fcp)],
  ];
  const lines = [
    condition.label,
    `  ${pad('ms, median (min–max)', 30)}${col('Doorway (/login)', 24)}${col('FirebaseUI 6.1.0', 24)}${col('ratio', 8)}`,
  ];
  for (const [label, ours, theirs] of rows) {
    const r = ratio(ours.median, theirs.median);
    lines.push(
      `  ${pad(label, 30)}${col(cell(ours), 24)}${col(cell(theirs), 24)}${col(Number.isFinite(r) ? r.toFixed(2) : '–', 8)}`,
    );
  }
  return lines;
}
