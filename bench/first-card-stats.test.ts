import { describe, expect, it } from 'vitest';
import { budgetVerdict, cell, conditionTable, median, ratio, summarize } from './first-card-stats.mjs';

describe('median', () => {
  it('is the middle value of an odd count, whatever the order', () => {
    expect(median([900, 100, 500, 300, 700])).toBe(500);
  });

  it('is the mean of the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is NaN for no values, and leaves its input unsorted', () => {
    expect(median([])).toBeNaN();
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('summarize', () => {
  it('leaves out loads that reported nothing and counts them', () => {
    expect(summarize([300, null, 100, undefined, 200, Number.NaN])).toEqual({
      median: 200,
      min: 100,
      max: 300,
      n: 3,
      missing: 3,
    });
  });

  it('has no figures when no load reported', () => {
    const s = summarize([null, null]);
    expect([s.median, s.min, s.max, s.n, s.missing]).toEqual([Number.NaN, Number.NaN, Number.NaN, 0, 2]);
  });
});

describe('ratio and budgetVerdict', () => {
  it('divides ours by theirs', () => {
    expect(ratio(500, 2000)).toBe(0.25);
  });

  it('is NaN when a median is missing or theirs is zero', () => {
    expect(ratio(Number.NaN, 1000)).toBeNaN();
    expect(ratio(500, Number.NaN)).toBeNaN();
    expect(ratio(500, 0)).toBeNaN();
  });

  it('passes at the factor exactly and fails above it', () => {
    expect(budgetVerdict(1000, 2000, 0.5)).toBe('PASS');
    expect(budgetVerdict(1001, 2000, 0.5)).toBe('FAIL');
  });

  it('fails when either side has no figure', () => {
    expect(budgetVerdict(Number.NaN, 2000, 0.5)).toBe('FAIL');
    expect(budgetVerdict(100, Number.NaN, 0.5)).toBe('FAIL');
  });
});

describe('the table', () => {
  it('writes median (min–max) and the missing loads', () => {
    expect(cell(summarize([120.4, 80, 99.6]))).toBe('100 (80–120)');
    expect(cell(summarize([100, null]))).toBe('100 (100–100) [1 missing]');
    expect(cell(summarize([]))).toBe('–');
    expect(cell(summarize([null]))).toBe('– [1 missing]');
  });

  it('has a row per measure with the ratio of the medians', () => {
    const lines = conditionTable({
      label: 'Fast 3G + 4× CPU',
      ours: { usable: [1000, 1200, 1100], fcp: [1000, 1200, 1100] },
      theirs: { uiShown: [2000, 2400, 2200], fcp: [2500, 2600, null] },
    });
    expect(lines[0]).toBe('Fast 3G + 4× CPU');
    expect(lines[2]).toMatch(
      /^ {2}first usable card \/ uiShown +1100 \(1000–1200\) +2200 \(2000–2400\) +0\.50$/,
    );
    expect(lines[3]).toMatch(
      /^ {2}first contentful paint +1100 \(1000–1200\) +2550 \(2500–2600\) \[1 missing\] +0\.43$/,
    );
  });
});
