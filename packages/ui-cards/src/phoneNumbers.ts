/**
 * Country list and E.164 parsing for the phone entry card, on libphonenumber-js/core with the metadata that
 * scripts/phone-metadata.mjs derives from the package's own 'min' metadata (only what parsing reads).
 *
 * The card needs one thing of a parser: a typed number and the selected country → E.164, whether the length
 * is possible, and the number's country. libphonenumber-js's `parsePhoneNumber` answers that but brings
 * formatting, validation, extensions and RFC 3966 along (~9.5 kB gzip, the `PhoneNumber` class imports them
 * all). So this module follows the steps of libphonenumber-js's `parse()` (strip the IDD prefix, extract the
 * calling code, strip the national prefix, tell countries that share a calling code apart, check the length)
 * over libphonenumber-js's own `Metadata` accessor; test/phone-metadata.test.ts checks it against
 * `parsePhoneNumberFromString` with the full 'min' metadata for every country's example numbers. One
 * difference on purpose: an extension ("ext. 12") is not stripped, the input stays as typed and the engine
 * rejects it (an SMS cannot reach an extension).
 *
 * This module is the phone card's lazy chunk. It imports nothing of ours on purpose: a module shared with the
 * first chunk would make esbuild split a separate shared chunk, and every extra chunk costs gzip efficiency.
 * @module
 */
import {
  type CountryCode,
  getCountryCallingCode as coreCallingCode,
  getCountries as coreCountries,
  Metadata,
  parseIncompletePhoneNumber,
} from 'libphonenumber-js/core';
import metadata from './phone-metadata.ts';

/** A country the phone card offers. */
export interface Country {
  code: CountryCode;
  name: string;
  dial: string;
}

/** The countries to offer, named by `Intl.DisplayNames` (libphonenumber-js has the codes, not names). */
export function countryList(allowed: readonly string[] | null, blocked: readonly string[]): Country[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    // Old runtimes: show the ISO code.
  }
  return coreCountries(metadata)
    .filter((c) => (allowed ? allowed.includes(c) : !blocked.includes(c)))
    .map((code) => ({ code, name: names?.of(code) ?? code, dial: coreCallingCode(code, metadata) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

// The parts of libphonenumber-js's `Metadata` / `NumberingPlan` this module reads (its typings declare
// only `selectNumberingPlan`).
interface NumberType {
  pattern(): string | undefined;
  possibleLengths(): number[] | undefined;
}
interface Plan {
  callingCode(): string;
  IDDPrefix(): string;
  nationalNumberPattern(): string | undefined;
  possibleLengths(): number[] | undefined;
  nationalPrefixForParsing(): string | undefined;
  nationalPrefixTransformRule(): string | undefined;
  leadingDigits(): string | undefined;
  type(name: string): NumberType | undefined;
}
interface Numbering {
  selectNumberingPlan(countryOrCallingCode: string): void;
  numberingPlan: Plan;
  hasCallingCode(callingCode: string): boolean;
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
}

const lib = new Metadata(metadata as never) as unknown as Numbering;

/** The numbering plan of a country or calling code (a shared calling code selects its main country). */
function plan(countryOrCallingCode: string): Plan {
  const m = new Metadata(metadata as never) as unknown as Numbering;
  m.selectNumberingPlan(countryOrCallingCode);
  return m.numberingPlan;
}

const whole = (text: string, pattern: string | undefined) => new RegExp(`^(?:${pattern ?? ''})$`).test(text);

/** libphonenumber-js `checkNumberLength`: true for a possible length; `'short'`, `'long'` or `false` otherwise. */
function lengthFits(national: string, lengths: number[] | undefined): true | false | 'short' | 'long' {
  if (!lengths) return true;
  const n = national.length;
  const min = lengths[0] as number;
  if (min === n) return true;
  if (min > n) return 'short';
  if ((lengths[lengths.length - 1] as number) < n) return 'long';
  return lengths.indexOf(n, 1) >= 0;
}

const TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'PERSONAL_NUMBER',
  'VOICEMAIL',
  'UAN',
  'PAGER',
  'VOIP',
  'SHARED_COST',
];

/** The country of a calling code a national number belongs to (libphonenumber-js `getCountryByCallingCode`). */
function countryOf(callingCode: string, national: string): string | undefined {
  const countries = lib.getCountryCodesForCallingCode(callingCode);
  if (!countries || countries.length < 2) return countries?.[0];
  for (const country of countries) {
    const p = plan(country);
    const leading = p.leadingDigits();
    if (leading) {
      if (national.search(leading) === 0) return country;
    } else if (
      whole(national, p.nationalNumberPattern()) &&
      TYPES.some((name) => {
        const type = p.type(name);
        const pattern = type?.pattern();
        const lengths = type?.possibleLengths();
        return !!pattern && (!lengths || lengths.includes(national.length)) && whole(national, pattern);
      })
    )
      return country;
  }
  return undefined;
}

/** Strips a national prefix (and carrier code) where the plan says so (libphonenumber-js `extractNationalNumber`). */
function nationalOf(number: string, p: Plan): string {
  const prefix = p.nationalPrefixForParsing();
  if (!number || !prefix) return number;
  const pattern = new RegExp(`^(?:${prefix})`);
  const match = pattern.exec(number);
  if (!match) return number;
  const groups = match.length - 1;
  const rule = p.nationalPrefixTransformRule();
  const national =
    rule && groups > 0 && match[groups] ? number.replace(pattern, rule) : number.slice(match[0].length);
  if (national === number) return number;
  const nnp = p.nationalNumberPattern();
  if (whole(number, nnp) && !whole(national, nnp)) return number;
  if (p.possibleLengths()) {
    const country = countryOf(p.callingCode(), national);
    const fits = lengthFits(national, (country ? plan(country) : p).possibleLengths());
    if (fits === 'short' || fits === false) return number;
  }
  return national;
}

/** Splits `+CCC…`, `<IDD>CCC…` or a national number (libphonenumber-js `extractCountryCallingCode`). */
function callingCodeOf(number: string, selected: string): { callingCode?: string; rest?: string } {
  if (number[0] !== '+') {
    const p = plan(selected);
    const idd = new RegExp(p.IDDPrefix());
    const afterIdd = number.search(idd) === 0 ? number.slice(number.match(idd)?.[0].length) : undefined;
    if (afterIdd && afterIdd[0] !== '0' && afterIdd !== number) {
      number = `+${afterIdd}`;
    } else {
      // An international number typed without "+" or IDD prefix.
      const callingCode = coreCallingCode(selected as CountryCode, metadata);
      if (number.indexOf(callingCode) === 0) {
        const shorter = number.slice(callingCode.length);
        const nnp = p.nationalNumberPattern();
        const national = nationalOf(number, p);
        if (
          (!whole(national, nnp) && whole(nationalOf(shorter, p), nnp)) ||
          lengthFits(national, p.possibleLengths()) === 'long'
        )
          return { callingCode, rest: shorter };
      }
      return { rest: number };
    }
  }
  if (number[1] === '0') return {};
  for (let i = 2; i <= 4 && i <= number.length; i++) {
    const callingCode = number.slice(1, i);
    if (lib.hasCallingCode(callingCode)) return { callingCode, rest: number.slice(i) };
  }
  return {};
}

// libphonenumber-js's `parse()` input rules: from the first "+" or digit, trailing non-digits dropped, then
// only digits and punctuation (dashes, slashes, dots, spaces, brackets, tildes), at least two digits.
const DIGIT = '0-9\uFF10-\uFF19\u0660-\u0669\u06F0-\u06F9';
const START = new RegExp(`[+\uFF0B${DIGIT}]`);
const END = new RegExp(`[^${DIGIT}#]+$`);
const VIABLE = new RegExp(
  `^[+\uFF0B]?[-\u2010-\u2015\u2212\u30FC\uFF0D\uFF0F/\uFF0E. \xA0\xAD\u200B\u2060\u3000()\uFF08\uFF09\uFF3B\uFF3D\\[\\]~\u2053\u223C\uFF5E${DIGIT}]*$`,
);

/** A typed number read with the selected country (libphonenumber-js `parse()`), or null if it is not a number. */
function parse(input: string, selected: string) {
  const own = plan(selected); // throws for an unknown country, as parse() does
  if (!input || input.length > 250) return null;
  const start = input.search(START);
  if (start < 0) return null;
  const text = input.slice(start).replace(END, '');
  const typed = parseIncompletePhoneNumber(text);
  if (!VIABLE.test(text) || typed.replace('+', '').length < 2) return null;
  let { callingCode, rest } = callingCodeOf(typed, selected);
  let country: string | undefined;
  let p = own;
  if (callingCode) p = plan(callingCode);
  else if (rest) {
    country = selected;
    callingCode = own.callingCode();
  } else return null;
  if (!rest) return null;
  const national = nationalOf(rest, p);
  country = countryOf(callingCode, national) ?? country;
  if (national.length < 2 || national.length > 17) return null;
  return {
    number: `+${callingCode}${national}`,
    callingCode,
    national,
    country,
    possible: lengthFits(national, plan(country ?? callingCode).possibleLengths()) === true,
  };
}

/** A local or international number → E.164 and its country, when libphonenumber-js's data can parse it. */
export function toE164(input: string, country: string): { phoneNumber: string; country: string } {
  let parsed: ReturnType<typeof parse> = null;
  try {
    parsed = parse(input, country);
  } catch {
    // An unknown country: leave the number as typed.
  }
  if (!parsed?.possible) return { phoneNumber: input.trim(), country };
  const { number, callingCode, national } = parsed;
  // An unrecognised number keeps the selected country only if its calling code is that country's; else the
  // first country of its calling code the length fits (libphonenumber-js `getPossibleCountries()`).
  const detected =
    parsed.country ??
    (callingCode === coreCallingCode(country as CountryCode, metadata)
      ? country
      : lib
          .getCountryCodesForCallingCode(callingCode)
          ?.find((c) => plan(c).possibleLengths()?.includes(national.length)));
  return { phoneNumber: number, country: detected ?? '' };
}
