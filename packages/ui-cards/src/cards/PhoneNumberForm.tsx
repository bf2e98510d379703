import { type AuthProvider, type CaptchaVerifier, optionsFor, uiText } from '@doorway/auth-core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type CardProps, type UiEvent, useWidget } from '../context.ts';
import { Actions, Button, CardError, errorsFor, Field, Form, Legal } from '../parts.tsx';
import type * as PhoneNumbers from '../phoneNumbers.ts';
import { CancelButton } from './common.tsx';

/** Props of {@link PhoneNumberForm}. */
export interface PhoneFormProps extends CardProps<'phoneEntry'> {
  allowedCountries: readonly string[] | null;
  blockedCountries: readonly string[];
}

interface Props extends PhoneFormProps {
  /** The phone chunk: libphonenumber-js's metadata and our reader of it. */
  numbers: typeof PhoneNumbers;
}

/**
 * The captcha of the phone form: a verifier of the provider rendered in `captchaRef`'s element (`verifierRef`),
 * cleared when the form goes unless it was handed to the flow (`submittedRef`).
 */
export function useCaptcha(getProvider: () => AuthProvider | null) {
  const captchaRef = useRef<HTMLDivElement>(null);
  const verifierRef = useRef<CaptchaVerifier | null>(null);
  const submittedRef = useRef<CaptchaVerifier | null>(null);
  useEffect(() => {
    const container = captchaRef.current;
    if (!container) return;
    let verifier: CaptchaVerifier | null = null;
    // A card rendered by a server can show before a lazy provider has loaded: attach once it has.
    const attach = (): boolean => {
      const provider = getProvider();
      if (!provider) return false;
      verifier = provider.createCaptchaVerifier(container);
      verifierRef.current = verifier;
      verifier.render().catch(() => undefined); // an unrendered captcha is unsolved: the engine says so
      return true;
    };
    const timer = attach() ? undefined : setInterval(() => attach() && clearInterval(timer), 100);
    return () => {
      clearInterval(timer);
      verifierRef.current = null;
      // A verifier handed to the flow stays alive: "Resend" on the code card reuses it.
      if (verifier && submittedRef.current !== verifier) verifier.clear();
    };
  }, [getProvider]);
  return { captchaRef, verifierRef, submittedRef };
}

/** The phone entry form: country selector, number, captcha, Verify. Rendered once `numbers` has loaded. */
export function PhoneNumberForm({ state, send, allowedCountries, blockedCountries, numbers }: Props) {
  const { config, getProvider } = useWidget();
  const countries = useMemo(
    () => numbers.countryList(allowedCountries, blockedCountries),
    [numbers, allowedCountries, blockedCountries],
  );
  const [country, setCountry] = useState(() =>
    countries.some((c) => c.code === state.country) ? state.country : (countries[0]?.code ?? state.country),
  );
  const [phone, setPhone] = useState(state.phoneNumber);
  const { captchaRef, verifierRef, submittedRef } = useCaptcha(getProvider);
  const errors = errorsFor(state.error, ['country', 'phone', 'captcha']);
  const pending = state.pending !== null;
  const canCancel = optionsFor(config, config.tenants ? state.tenantId : undefined).length > 1;

  const submit = (): UiEvent => {
    const verifier = verifierRef.current;
    const parsed = numbers.toE164(phone, country);
    if (verifier) submittedRef.current = verifier;
    return {
      type: 'SUBMIT_PHONE',
      phoneNumber: parsed.phoneNumber,
      country: parsed.country,
      captchaSolved: verifier?.isSolved() ?? false,
      verifier,
    };
  };

  return (
    <Form event="SUBMIT_PHONE" send={send} pending={pending} submit={submit}>
      <CardError message={errors.card} />
      <Field
        label={uiText.countryLabel}
        name="country"
        value={country}
        error={errors.country}
        onChange={(e) => setCountry(e.target.value)}
        options={countries.map((c) => (
          <option key={c.code} value={c.code}>
            {`${c.name} +${c.dial}`}
          </option>
        ))}
      />
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
        <Button disabled={pending}>{uiText.verify}</Button>
        {canCancel ? <CancelButton pending={pending} /> : null}
      </Actions>
      <Legal />
    </Form>
  );
}
