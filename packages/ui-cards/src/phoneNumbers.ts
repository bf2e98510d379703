/**
 * Country list and E.164 parsing for the phone entry card, over libphonenumber-js's metadata as
 * scripts/phone-metadata.mjs derives from the package's own 'min' metadata (only what parsing reads).
 *
 * The card needs one thing of a parser: a typed number and the selected country → E.164, whether the length
 * is possible, and the number's country. libphonenumber-js's `parsePhoneNumber` answers that but brings
 * formatting, validation, extensions and RFC 3966 along (~9.5 kB gzip, the `PhoneNumber` class imports them
 * all). So this module follows the steps of libphonenumber-js's `parse()` (strip the IDD prefix, extract the
 * calling code, strip the national prefix, tell countries that share a calling code apart, check the length)
 * over libphonenumber-js's metadata, read directly; test/phone-metadata.test.ts checks it against
 * `parsePhoneNumberFromString` with the full 'min' metadata for every country's example numbers. One
 * difference on purpose: an extension ("ext. 12") is not stripped, the input stays as typed and the engine
 * rejects it (an SMS cannot reach an extension).
 *
 * This module is the phone card's lazy chunk. It imports nothing of ours on purpose: a module shared with the
 * first chunk would make esbuild split a separate shared chunk, and every extra chunk costs gzip efficiency.
 * @module
 */
import metadata from './phone-metadata.ts';

/** A country the phone card offers. */
export interface Country {
  /** ISO 3166-1 alpha-2 region code ("GB"), a key of libphonenumber-js's metadata (a plain string here, so
   * the published types need no libphonenumber-js: the package ships its metadata and imports nothing). */
  code: string;
  name: string;
  dial: string;
}

// libphonenumber-js's metadata (version 4), read directly: its `Metadata` class (~3 kB gzip) also reads
// every older layout and everything formatting needs. A country's entry is a tuple, indexed by the
// constants below; number types are `[pattern, lengths?]` each, 0 where absent.
// test/phone-metadata.test.ts checks the results against libphonenumber-js itself.
const CALLING_CODE = 0;
const IDD_PREFIX = 1;
const NATIONAL_NUMBER_PATTERN = 2;
const POSSIBLE_LENGTHS = 3;
const NATIONAL_PREFIX = 5;
const NATIONAL_PREFIX_FOR_PARSING = 7;
const NATIONAL_PREFIX_TRANSFORM_RULE = 8;
const LEADING_DIGITS = 10;
const TYPES = 11;
type Entry = [string, string, string, number[], ...unknown[]];
type NumberType = [string, number[]?] | 0;
const countries = metadata.countries as Record<string, Entry>;
const nonGeographic = metadata.nonGeographic as Record<string, Entry>;
/** libphonenumber-js's `country_calling_codes`: rebuilt from the countries' order (main country first). */
export const callingCodes: Record<string, string[]> = {};
for (const [country, entry] of Object.entries(countries)) {
  const sharing = callingCodes[entry[CALLING_CODE]] ?? [];
  sharing.push(country);
  callingCodes[entry[CALLING_CODE]] = sharing;
}

/** A country's calling code (libphonenumber-js `getCountryCallingCode`); throws for an unknown country. */
function dialOf(country: string): string {
  return plan(country)[CALLING_CODE];
}

/** The countries to offer, named by `Intl.DisplayNames` (libphonenumber-js has the codes, not names). */
export function countryList(allowed: readonly string[] | null, blocked: readonly string[]): Country[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    // Old runtimes: show the ISO code.
  }
  return Object.keys(countries)
    .filter((c) => (allowed ? allowed.includes(c) : !blocked.includes(c)))
    .map((code) => ({ code, name: names?.of(code) ?? code, dial: dialOf(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/**
 * The numbering plan of a country or calling code (libphonenumber-js `selectNumberingPlan`): a shared
 * calling code selects its main country, one without a country its non-geographic plan.
 */
function plan(countryOrCallingCode: string): Entry {
  const own = (table: Record<string, Entry>, key = '') =>
    Object.hasOwn(table, key) ? table[key] : undefined;
  const entry = /^\d+$/.test(countryOrCallingCode)
    ? (own(countries, callingCodes[countryOrCallingCode]?.[0]) ?? own(nonGeographic, countryOrCallingCode))
    : own(countries, countryOrCallingCode);
  if (!entry) throw new Error(`Unknown country or calling code: ${countryOrCallingCode}`);
  return entry;
}

const typeOf = (p: Entry, index: number) =>
  ((p[TYPES] as NumberType[] | undefined) || [])[index] || undefined;

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

/** The country of a calling code a national number belongs to (libphonenumber-js `getCountryByCallingCode`). */
function countryOf(callingCode: string, national: string): string | undefined {
  const sharing = callingCodes[callingCode];
  if (!sharing || sharing.length < 2) return sharing?.[0];
  for (const country of sharing) {
    const p = plan(country);
    const leading = p[LEADING_DIGITS] as string | undefined;
    if (leading) {
      if (national.search(leading) === 0) return country;
    } else if (
      whole(national, p[NATIONAL_NUMBER_PATTERN]) &&
      // The ten number types (fixed line, mobile, toll free, … shared cost); a type's lengths default to the plan's.
      Array.from({ length: 10 }, (_, i) => typeOf(p, i)).some((type) => {
        if (!type?.[0]) return false;
        const lengths = type[1] || p[POSSIBLE_LENGTHS];
        return (!lengths || lengths.includes(national.length)) && whole(national, type[0]);
      })
    )
      return country;
  }
  return undefined;
}

/** Strips a national prefix (and carrier code) where the plan says so (libphonenumber-js `extractNationalNumber`). */
function nationalOf(number: string, p: Entry): string {
  // Unset, it is the national prefix itself.
  const prefix = (p[NATIONAL_PREFIX_FOR_PARSING] || p[NATIONAL_PREFIX]) as string | undefined;
  if (!number || !prefix) return number;
  const pattern = new RegExp(`^(?:${prefix})`);
  const match = pattern.exec(number);
  if (!match) return number;
  const groups = match.length - 1;
  const rule = p[NATIONAL_PREFIX_TRANSFORM_RULE] as string | undefined;
  const national =
    rule && groups > 0 && match[groups] ? number.replace(pattern, rule) : number.slice(match[0].length);
  if (national === number) return number;
  const nnp = p[NATIONAL_NUMBER_PATTERN];
  if (whole(number, nnp) && !whole(national, nnp)) return number;
  if (p[POSSIBLE_LENGTHS]) {
    const country = countryOf(p[CALLING_CODE], national);
    const fits = lengthFits(national, (country ? plan(country) : p)[POSSIBLE_LENGTHS]);
    if (fits === 'short' || fits === false) return number;
  }
  return national;
}

/** Splits `+CCC…`, `<IDD>CCC…` or a national number (libphonenumber-js `extractCountryCallingCode`). */
function callingCodeOf(number: string, selected: string): { callingCode?: string; rest?: string } {
  if (number[0] !== '+') {
    const p = plan(selected);
    const idd = new RegExp(p[IDD_PREFIX]);
    const afterIdd = number.search(idd) === 0 ? number.slice(number.match(idd)?.[0].length) : undefined;
    if (afterIdd && afterIdd[0] !== '0' && afterIdd !== number) {
      number = `+${afterIdd}`;
    } else {
      // An international number typed without "+" or IDD prefix.
      const callingCode = p[CALLING_CODE];
      if (number.indexOf(callingCode) === 0) {
        const shorter = number.slice(callingCode.length);
        const nnp = p[NATIONAL_NUMBER_PATTERN];
        const national = nationalOf(number, p);
        if (
          (!whole(national, nnp) && whole(nationalOf(shorter, p), nnp)) ||
          lengthFits(national, p[POSSIBLE_LENGTHS]) === 'long'
        )
          return { callingCode, rest: shorter };
      }
      return { rest: number };
    }
  }
  if (number[1] === '0') return {};
  for (let i = 2; i <= 4 && i <= number.length; i++) {
    const callingCode = number.slice(1, i);
    if (callingCodes[callingCode] || nonGeographic[callingCode])
      return { callingCode, rest: number.slice(i) };
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

/**
 * The digits of a typed number, a leading "+" kept, other scripts' digits as ASCII (libphonenumber-js
 * `parseIncompletePhoneNumber`: fullwidth, Arabic-Indic and Eastern Arabic-Indic digits).
 */
function digitsOf(text: string): string {
  let result = '';
  for (const c of text) {
    if (c === '+') {
      if (!result) result = '+';
      continue;
    }
    const code = c.charCodeAt(0);
    for (const zero of [48, 0xff10, 0x660, 0x6f0])
      if (code >= zero && code <= zero + 9) result += String(code - zero);
  }
  return result;
}

/** A typed number read with the selected country (libphonenumber-js `parse()`), or null if it is not a number. */
function parse(input: string, selected: string) {
  const own = plan(selected); // throws for an unknown country, as parse() does
  if (!input || input.length > 250) return null;
  const start = input.search(START);
  if (start < 0) return null;
  const text = input.slice(start).replace(END, '');
  const typed = digitsOf(text);
  if (!VIABLE.test(text) || typed.replace('+', '').length < 2) return null;
  let { callingCode, rest } = callingCodeOf(typed, selected);
  let country: string | undefined;
  let p = own;
  if (callingCode) p = plan(callingCode);
  else if (rest) {
    country = selected;
    callingCode = own[CALLING_CODE];
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
    possible: lengthFits(national, plan(country ?? callingCode)[POSSIBLE_LENGTHS]) === true,
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
    (callingCode === dialOf(country)
      ? country
      : callingCodes[callingCode]?.find((c) => plan(c)[POSSIBLE_LENGTHS]?.includes(national.length)));
  return { phoneNumber: number, country: detected ?? '' };
}
