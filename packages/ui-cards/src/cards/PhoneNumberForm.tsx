import { type CaptchaVerifier, optionsFor, uiText } from '@doorway/auth-core';
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/min';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type CardProps, useWidget } from '../context.ts';
import { Actions, Button, CardError, errorsFor, Field, Form, Legal, SelectField } from '../parts.tsx';

interface Props extends CardProps<'phoneEntry'> {
  allowedCountries: readonly string[] | null;
  blockedCountries: readonly string[];
}

/** The countries to offer, named by `Intl.DisplayNames` (libphonenumber-js has the codes, not names). */
function countryList(allowed: readonly string[] | null, blocked: readonly string[]) {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    // Old runtimes: show the ISO code.
  }
  return getCountries()
    .filter((c) => (allowed ? allowed.includes(c) : !blocked.includes(c)))
    .map((code) => ({ code, name: names?.of(code) ?? code, dial: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** A local or international number → E.164 and its country, when libphonenumber-js can parse it. */
function toE164(input: string, country: CountryCode): { phoneNumber: string; country: string } {
  const parsed = parsePhoneNumberFromString(input, country);
  if (!parsed?.isPossible()) return { phoneNumber: input.trim(), country };
  // An unrecognised number keeps the selected country only if its calling code is that country's.
  const fallback =
    parsed.countryCallingCode === getCountryCallingCode(country) ? country : parsed.getPossibleCountries()[0];
  return { phoneNumber: parsed.number, country: parsed.country ?? fallback ?? '' };
}

/** The phone entry form (lazy chunk): country selector, number, captcha, Verify. */
export default function PhoneNumberForm({ state, send, allowedCountries, blockedCountries }: Props) {
  const { config, getProvider } = useWidget();
  const countries = useMemo(
    () => countryList(allowedCountries, blockedCountries),
    [allowedCountries, blockedCountries],
  );
  const [country, setCountry] = useState(() =>
    countries.some((c) => c.code === state.country) ? state.country : (countries[0]?.code ?? state.country),
  );
  const [phone, setPhone] = useState(state.phoneNumber);
  const captchaRef = useRef<HTMLDivElement>(null);
  const verifierRef = useRef<CaptchaVerifier | null>(null);
  const submittedRef = useRef<CaptchaVerifier | null>(null);
  const errors = errorsFor(state.error, ['country', 'phone', 'captcha']);
  const pending = state.pending !== null;
  const canCancel = optionsFor(config, config.tenants ? state.tenantId : undefined).length > 1;

  useEffect(() => {
    const provider = getProvider();
    const container = captchaRef.current;
    if (!provider || !container) return;
    const verifier = provider.createCaptchaVerifier(container);
    verifierRef.current = verifier;
    verifier.render().catch(() => undefined); // an unrendered captcha is unsolved: the engine says so
    return () => {
      verifierRef.current = null;
      // A verifier handed to the flow stays alive: "Resend" on the code card reuses it.
      if (submittedRef.current !== verifier) verifier.clear();
    };
  }, [getProvider]);

  const submit = () => {
    const verifier = verifierRef.current;
    const parsed = toE164(phone, country as CountryCode);
    if (verifier) submittedRef.current = verifier;
    send({
      type: 'SUBMIT_PHONE',
      phoneNumber: parsed.phoneNumber,
      country: parsed.country,
      captchaSolved: verifier?.isSolved() ?? false,
      verifier,
    });
  };

  return (
    <Form pending={pending} onSubmit={submit}>
      <CardError message={errors.card} />
      <SelectField
        label={uiText.countryLabel}
        name="country"
        value={country}
        error={errors.country}
        onChange={(e) => setCountry(e.target.value)}
      >
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {`${c.name} +${c.dial}`}
          </option>
        ))}
      </SelectField>
      <Field
        label={uiText.phoneLabel}
        type="tel"
        name="phone"
        autoComplete="tel"
        value={phone}
        error={errors.phone}
        onChange={(e) => setPhone(e.target.value)}
      />
      {errors.captcha ? <p className="doorway-error">{errors.captcha}</p> : null}
      <div className="doorway-captcha" ref={captchaRef} />
      <Actions>
        {canCancel ? (
          <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
            {uiText.cancel}
          </Button>
        ) : null}
        <Button submit disabled={pending}>
          {uiText.verify}
        </Button>
      </Actions>
      <Legal />
    </Form>
  );
}
