import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cardText, titleText } from '../src/cardText.ts';
import { type Catalogue, en } from '../src/locales/en.ts';
import { errorMessages, firstCardText, validationMessages } from '../src/messages.ts';
import { pseudoLocale, pseudoText } from '../src/pseudoLocale.ts';

/** The `{name}` parameters of a text, sorted and without repeats. */
const params = (text: string) => [...new Set(text.match(/\{[^{}]+\}/g) ?? [])].sort();

const dir = join(import.meta.dirname, '..', 'src', 'locales');
const tags = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'en.ts')
  .map((f) => f.slice(0, -3));

describe.each(tags)('locale %s', (tag) => {
  it('has exactly the groups and keys of English, each a non-empty text with the same parameters', async () => {
    const catalogue: Catalogue = (await import(join(dir, `${tag}.ts`))).default;
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(en).sort());
    for (const group of Object.keys(en) as (keyof Catalogue)[]) {
      const ours = catalogue[group] as Record<string, string>;
      const english = en[group] as Record<string, string>;
      expect(Object.keys(ours).sort(), `${tag} ${group}`).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        const translated = ours[key] ?? '';
        expect(typeof ours[key], `${tag} ${group}.${key}`).toBe('string');
        expect(translated.trim(), `${tag} ${group}.${key}`).not.toBe('');
        expect(params(translated), `${tag} ${group}.${key}`).toEqual(params(text));
      }
    }
  });
});

it('ships the twenty locales besides English', () => {
  expect(tags.sort()).toEqual(
    [
      'ar',
      'de',
      'es',
      'fa',
      'fr',
      'he',
      'hi',
      'id',
      'it',
      'ja',
      'ko',
      'nl',
      'pl',
      'pt-BR',
      'ru',
      'th',
      'tr',
      'uk',
      'vi',
      'zh-CN',
    ].sort(),
  );
});

describe('the pseudo-locale', () => {
  it('accents every text, makes it at least 30 % longer and keeps its parameters', () => {
    const pseudo = pseudoLocale();
    for (const group of Object.keys(en) as (keyof Catalogue)[]) {
      for (const [key, text] of Object.entries(en[group] as Record<string, string>)) {
        const ours = (pseudo[group] as Record<string, string>)[key] ?? '';
        expect(params(ours), `${group}.${key}`).toEqual(params(text));
        expect(ours.length, `${group}.${key}`).toBeGreaterThanOrEqual(Math.ceil(text.length * 1.3));
        expect(ours, `${group}.${key}`).not.toBe(text);
      }
    }
  });

  it('leaves the parameters as they are and accents the rest', () => {
    expect(pseudoText('Sign in with {provider}')).toBe('[Sígñ íñ wíth {provider} ·······]');
  });
});

/** A table of the runtime's English texts with each function's parameters written `{name}`. */
function asTemplates(table: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(table).map(([key, value]) => {
      if (typeof value === 'string') return [key, value];
      const names = (/^\(([^)]*)\)/.exec(String(value))?.[1] ?? '')
        .split(',')
        .map((p) => p.split(':')[0]?.trim())
        .filter(Boolean);
      return [key, (value as (...a: string[]) => string)(...names.map((n) => `{${n}}`))];
    }),
  );
}

it('English as data says what the cards and the error catalogue say', () => {
  const runtime = {
    validation: validationMessages,
    error: errorMessages,
    firstCard: asTemplates(firstCardText),
    card: { ...asTemplates(cardText), secondFactorTotpOption: cardText.secondFactorTotpOption(null) },
    title: asTemplates(titleText),
  };
  for (const [group, table] of Object.entries(runtime))
    for (const [key, text] of Object.entries(en[group as keyof Catalogue] as Record<string, string>))
      if (key in table) expect(text, `${group}.${key}`).toBe((table as Record<string, string>)[key]);
  // The texts split in two as data (with and without a name) and the ones only data has.
  expect(cardText.secondFactorTotpOption(null)).toBe(en.card.secondFactorTotpOption);
  expect(cardText.secondFactorTotpOption('{name}')).toBe(en.card.secondFactorTotpOptionNamed);
});
