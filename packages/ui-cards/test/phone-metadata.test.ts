/**
 * The phone form parses with libphonenumber-js/core and metadata derived by scripts/phone-metadata.mjs (the
 * 'min' metadata without number formats). These tests pin that the slimmer metadata parses, validates and
 * picks countries exactly as the full 'min' build does, and that invalid numbers are still rejected.
 */
import {
  type CountryCode,
  getCountryCallingCode as coreCallingCode,
  getCountries as coreCountries,
  parsePhoneNumberFromString as coreParse,
} from 'libphonenumber-js/core';
import {
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import slim from '../src/phone-metadata.ts';
import { toE164 } from '../src/phoneNumbers.ts';

const summary = (p: ReturnType<typeof parsePhoneNumberFromString>) =>
  p && {
    number: p.number,
    country: p.country,
    callingCode: p.countryCallingCode,
    possible: p.isPossible(),
    valid: p.isValid(),
    possibleCountries: p.getPossibleCountries(),
  };

describe('phone metadata (min without formats)', () => {
  it('has the same countries and calling codes', () => {
    expect(coreCountries(slim)).toEqual(getCountries());
    for (const c of getCountries()) expect(coreCallingCode(c, slim)).toBe(getCountryCallingCode(c));
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
