/**
 * The pseudo-locale `en-XA` for tests: every English text with its letters accented and about 40 % longer,
 * in brackets, its `{…}` parameters untouched. Text that a layout clips, wraps badly or leaves in English
 * shows at a glance.
 * @module
 */
import { type Catalogue, en } from './locales/en.ts';

const ACCENTED: Record<string, string> = {
  a: 'á',
  c: 'ç',
  e: 'é',
  i: 'í',
  n: 'ñ',
  o: 'ö',
  u: 'ü',
  y: 'ý',
  A: 'Å',
  C: 'Ç',
  E: 'É',
  I: 'Î',
  N: 'Ñ',
  O: 'Ö',
  U: 'Û',
  Y: 'Ý',
};

/** One text in the pseudo-locale: accented, padded to about 140 % of its length, parameters kept. */
export function pseudoText(text: string): string {
  const accented = text
    .split(/(\{[^{}]+\})/)
    .map((part) => (part.startsWith('{') ? part : part.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c)))
    .join('');
  const padding = '·'.repeat(Math.max(2, Math.round(text.length * 0.4) - 2));
  return `[${accented} ${padding}]`;
}

/** The whole catalogue in the pseudo-locale. */
export function pseudoLocale(from: Catalogue = en): Catalogue {
  return Object.fromEntries(
    Object.entries(from).map(([group, texts]) => [
      group,
      Object.fromEntries(Object.entries(texts as Record<string, string>).map(([k, t]) => [k, pseudoText(t)])),
    ]),
  ) as unknown as Catalogue;
}
