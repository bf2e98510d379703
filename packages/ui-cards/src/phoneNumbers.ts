/**
 * Country list and E.164 parsing for the phone entry card, on libphonenumber-js/core with the metadata that
 * scripts/phone-metadata.mjs derives from the package's own 'min' metadata (formats dropped: we only parse).
 * This module is the phone card's lazy chunk. It imports nothing of ours on purpose: a module shared with the
 * first chunk would make esbuild split a separate shared chunk, and every extra chunk costs gzip efficiency.
 * @module
 */
import {
  type CountryCode,
  getCountryCallingCode as coreCallingCode,
  getCountries as coreCountries,
  parsePhoneNumberFromString as coreParse,
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

/** A local or international number → E.164 and its country, when libphonenumber-js can parse it. */
export function toE164(input: string, country: string): { phoneNumber: string; country: string } {
  const selected = country as CountryCode;
  const parsed = coreParse(input, selected, metadata);
  if (!parsed?.isPossible()) return { phoneNumber: input.trim(), country };
  // An unrecognised number keeps the selected country only if its calling code is that country's.
  const fallback =
    parsed.countryCallingCode === coreCallingCode(selected, metadata)
      ? country
      : parsed.getPossibleCountries()[0];
  return { phoneNumber: parsed.number, country: parsed.country ?? fallback ?? '' };
}
