/**
 * The phone form parses with its own reader of libphonenumber-js's metadata, derived by
 * scripts/phone-metadata.mjs (the 'min' metadata without what only formatting reads). These tests pin that
 * the slimmer metadata parses, validates and picks countries exactly as the full 'min' build does, that
 * `toE164` answers exactly what `parsePhoneNumberFromString` with the full 'min' build answers, and that
 * invalid numbers are still rejected.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CountryCode,
  getCountryCallingCode as coreCallingCode,
  getCountries as coreCountries,
  parsePhoneNumberFromString as coreParse,
  type MetadataJson,
} from 'libphonenumber-js/core';
import minMetadata from 'libphonenumber-js/metadata.min.json';
import {
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import metadata from '../src/phone-metadata.ts';
import { callingCodes, countryList, toE164 } from '../src/phoneNumbers.ts';

// The slim metadata plus what the reader knows without reading it (the layout version the generator checks)
// and the calling-code table it rebuilds: libphonenumber-js's own shape again.
const slim = { version: 4, ...metadata, country_calling_codes: callingCodes } as unknown as MetadataJson;

const summary = (p: ReturnType<typeof parsePhoneNumberFromString>) =>
  p && {
    number: p.number,
    country: p.country,
    callingCode: p.countryCallingCode,
    possible: p.isPossible(),
    valid: p.isValid(),
    possibleCountries: p.getPossibleCountries(),
  };

/** `toE164` as libphonenumber-js's own parser with the full 'min' metadata answers it. */
function reference(input: string, country: string): { phoneNumber: string; country: string } {
  const parsed = parsePhoneNumberFromString(input, country as CountryCode);
  if (!parsed?.isPossible()) return { phoneNumber: input.trim(), country };
  const fallback =
    parsed.countryCallingCode === getCountryCallingCode(country as CountryCode)
      ? country
      : parsed.getPossibleCountries()[0];
  return { phoneNumber: parsed.number, country: parsed.country ?? fallback ?? '' };
}

describe('phone metadata (min without formats)', () => {
  it('rebuilds the calling-code table exactly, main country first', () => {
    expect(Object.keys(callingCodes)).toEqual(Object.keys(minMetadata.country_calling_codes));
    expect(callingCodes).toEqual(minMetadata.country_calling_codes);
  });

  it('has the same countries and calling codes', () => {
    // Listed grouped by calling code rather than alphabetically: the same set.
    expect([...coreCountries(slim)].sort()).toEqual(getCountries());
    for (const c of getCountries()) expect(coreCallingCode(c, slim)).toBe(getCountryCallingCode(c));
  });

  it('countryList offers libphonenumber-js’s countries with their calling codes, allowed or not blocked', () => {
    const all = countryList(null, []);
    expect(all.map((c) => c.code).sort()).toEqual(getCountries());
    for (const c of all) expect(c.dial).toBe(getCountryCallingCode(c.code as CountryCode));
    expect(all.find((c) => c.code === 'GB')?.name).toBe('United Kingdom');
    expect(countryList(['US', 'GB'], []).map((c) => c.code)).toEqual(['GB', 'US']);
    expect(countryList(null, ['US']).some((c) => c.code === 'US')).toBe(false);
    expect(countryList(null, ['US'])).toHaveLength(all.length - 1);
  });

  it('parses every country’s example number, national and international, like the min build', () => {
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples);
      if (!example) continue;
      const national = example.nationalNumber;
      const inputs = [
        example.number,
        national,
        `0${national}`,
        national.slice(0, -1),
        `${national}9`,
        `${national}99`,
      ];
      for (const input of inputs)
        expect(summary(coreParse(input, country, slim)), `${country} ${input}`).toEqual(
          summary(parsePhoneNumberFromString(input, country)),
        );
    }
  });

  it('toE164 answers as parsePhoneNumberFromString does for every country’s example numbers', () => {
    const others: CountryCode[] = ['US', 'GB', 'DE', 'IN', 'CA'];
    let compared = 0;
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples);
      if (!example) continue;
      const national = example.nationalNumber;
      const code = getCountryCallingCode(country);
      const inputs = [
        example.number,
        national,
        `0${national}`,
        `00${code}${national}`,
        `011${code}${national}`,
        `${code}${national}`,
        `${code}0${national}`,
        national.slice(0, -1),
        `${national}9`,
        `${national}99`,
        `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`,
        ` ${example.formatInternational()} `,
        example.formatNational(),
        `${example.formatNational()}.`,
      ];
      for (const input of inputs) {
        expect(toE164(input, country), `${country} ${input}`).toEqual(reference(input, country));
        compared += 1;
      }
      for (const other of others) {
        expect(toE164(example.number, other), `${other} ${example.number}`).toEqual(
          reference(example.number, other),
        );
        expect(toE164(national, other), `${other} ${national}`).toEqual(reference(national, other));
        compared += 2;
      }
    }
    expect(compared).toBeGreaterThan(4000);
  });

  it.each([
    '',
    '   ',
    'abc',
    '+',
    '00',
    '+0 123 456',
    '12',
    '+1 (201) +555 0123',
    '١٢٣٤٥٦٧٨٩٠',
    '＋４４ ２０ ７９４６ ００１８',
    '+44 20 7946 0018 !',
    'tel:+12015550123',
    '0'.repeat(300),
  ])('toE164(%j) answers as parsePhoneNumberFromString does', (input) => {
    for (const country of ['US', 'GB', 'FR', 'IN', 'BR'])
      expect(toE164(input, country)).toEqual(reference(input, country));
  });

  it('leaves a number with an extension as typed (an SMS cannot reach an extension)', () => {
    expect(toE164('(201) 555-0123 ext. 45', 'US')).toEqual({
      phoneNumber: '(201) 555-0123 ext. 45',
      country: 'US',
    });
  });

  const cases: [string, CountryCode, string, string][] = [
    ['(201) 555-0123', 'US', '+12015550123', 'US'],
    ['020 7946 0018', 'GB', '+442079460018', 'GB'],
    ['07400 123456', 'GB', '+447400123456', 'GB'],
    ['01 23 45 67 89', 'FR', '+33123456789', 'FR'],
    ['030 901820', 'DE', '+4930901820', 'DE'],
    ['98765 43210', 'IN', '+919876543210', 'IN'],
    ['(11) 96123-4567', 'BR', '+5511961234567', 'BR'],
    ['090-1234-5678', 'JP', '+819012345678', 'JP'],
    ['0412 345 678', 'AU', '+61412345678', 'AU'],
    ['0802 123 4567', 'NG', '+2348021234567', 'NG'],
    ['+1 416 555 0199', 'US', '+14165550199', 'CA'],
    ['+44 7400 123456', 'US', '+447400123456', 'GB'],
  ];
  it.each(cases)('toE164(%s, %s) → %s in %s', (input, country, e164, detected) => {
    expect(toE164(input, country)).toEqual({ phoneNumber: e164, country: detected });
    expect(coreParse(input, country, slim)?.isValid()).toBe(true);
  });

  it.each([
    ['123', 'US'],
    ['555 01', 'GB'],
    ['12345678901234567', 'DE'],
    ['+999 123456', 'FR'],
    ['abc', 'IN'],
  ] as [string, CountryCode][])('rejects %s (%s)', (input, country) => {
    const parsed = coreParse(input, country, slim);
    expect(parsed?.isPossible() ?? false).toBe(false);
    expect(toE164(input, country).phoneNumber).toBe(input.trim());
  });
});

describe('the phone chunk', () => {
  const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const importsOf = (file: string) =>
    [
      ...readFileSync(join(src, file), 'utf8').matchAll(
        /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'([^']+)'|import\('([^']+)'\)/g,
      ),
    ].map((m) => ({ type: Boolean(m[1]), dynamic: m[3] !== undefined, from: m[2] ?? m[3] ?? '' }));

  it('imports nothing of ours but its metadata, so esbuild makes it one chunk shared with nothing', () => {
    const runtime = importsOf('phoneNumbers.ts').filter((i) => !i.type);
    // Not even libphonenumber-js's code: the chunk reads its metadata directly.
    expect(runtime.map((i) => i.from)).toEqual(['./phone-metadata.ts']);
    expect(importsOf('phone-metadata.ts').filter((i) => !i.type)).toEqual([]);
  });

  it('is loaded only by import(): no module of the widget imports or re-exports it statically', () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const users = files.flatMap((f) =>
      importsOf(f)
        .filter((i) => /phoneNumbers\.ts$/.test(i.from))
        .map((i) => `${f}: ${i.dynamic ? 'import()' : i.type ? 'import type' : 'import'}`),
    );
    expect(users.sort()).toEqual(['cards/PhoneNumberForm.tsx: import type', 'cards/start.tsx: import()']);
  });
});
