/**
 * The form encoding of UI events: what a card's `<form method="post">` carries, read back into the event
 * the card would have sent with JavaScript on.
 * @module
 */
import type { FlowEvent, UI_EVENT_TYPES } from './events.ts';

/** An event a person's action produces (one of `UI_EVENT_TYPES`): what a card sends. */
export type UiEvent = Extract<FlowEvent, { type: (typeof UI_EVENT_TYPES)[number] }>;

/** The form fields of the encoding, with the longest value each may have. */
const FIELD_LIMITS = {
  email: 320,
  password: 4096,
  name: 256,
  providerId: 256,
  tenantId: 256,
  factorUid: 256,
  code: 32,
} as const;

type Field = keyof typeof FIELD_LIMITS;

/** What a form offers: `URLSearchParams`, or `FormData` (whose values may also be files). */
type FormLike = Pick<URLSearchParams, 'getAll'> | Pick<FormData, 'getAll'>;

/** Thrown inside the decoder when a field is over its limit; never escapes {@link formEvent}. */
const TOO_LONG = Symbol('too long');

function lastString(form: FormLike, name: string): string | null {
  const values: readonly unknown[] = form.getAll(name);
  const last = values[values.length - 1];
  return typeof last === 'string' ? last : null;
}

function field(form: FormLike, name: Field): string {
  const value = lastString(form, name) ?? '';
  if (value.length > FIELD_LIMITS[name]) throw TOO_LONG;
  return value;
}

function decode(form: FormLike, type: string): UiEvent | null {
  switch (type) {
    case 'CHOOSE_TENANT': {
      // The default tenant travels as the empty string.
      const tenantId = field(form, 'tenantId');
      return { type, tenantId: tenantId === '' ? null : tenantId };
    }
    case 'CHOOSE_PROVIDER':
      return { type, providerId: field(form, 'providerId') };
    case 'SUBMIT_EMAIL':
    case 'SUBMIT_RECOVERY':
    case 'CONFIRM_EMAIL':
      return { type, email: field(form, 'email') };
    case 'SUBMIT_PASSWORD':
    case 'SUBMIT_NEW_PASSWORD':
      return { type, password: field(form, 'password') };
    case 'SUBMIT_SIGN_UP':
      return {
        type,
        email: field(form, 'email'),
        name: field(form, 'name'),
        password: field(form, 'password'),
      };
    case 'CHOOSE_SECOND_FACTOR':
      return { type, factorUid: field(form, 'factorUid') };
    case 'SUBMIT_SECOND_FACTOR_CODE':
      return { type, code: field(form, 'code') };
    case 'GO_TO_RECOVERY':
    case 'GO_TO_SIGN_UP':
    case 'CHANGE_PHONE':
    case 'EMAIL_NOT_RECEIVED':
    case 'RESEND_EMAIL':
    case 'SEND_LINKING_EMAIL':
    case 'CONTINUE':
    case 'RETRY':
    case 'CANCEL':
    case 'SIGN_OUT':
    case 'SIGN_IN_AGAIN':
      return { type };
    default:
      // Unknown types, and the events only a browser can send (SUBMIT_PHONE, SUBMIT_CODE, RESEND_CODE,
      // SEND_SECOND_FACTOR_SMS, SIGN_IN_FEDERATED: captcha, popup), decode to nothing.
      return null;
  }
}

/**
 * Reads the UI event a posted card form carries (the form encoding of the form path). The LAST `event`
 * value names the event (a named submit button comes after the form's hidden `event` input); each field
 * is the last value of its name (`email`, `password`, `name`, `providerId`, `tenantId`, `factorUid`, `code`), a string, `''`
 * when missing. Values are passed on as typed: the transition trims and validates them, as it does for the
 * browser's cards. A default tenant (`tenantId: null`) is posted as `''`.
 *
 * Returns `null` for no event, an unknown one, an event only a browser can send (`SUBMIT_PHONE`,
 * `SUBMIT_CODE`, `RESEND_CODE`, `SIGN_IN_FEDERATED`), or a field longer than its limit (email 320,
 * password 4096, name, provider, tenant and factor ids 256, a second factor's code 32 characters: cut short,
 * they would be another address or password). Pure; never throws.
 * @example
 * formEvent(new URLSearchParams('event=SUBMIT_EMAIL&email=ada%40example.com'))
 * // { type: 'SUBMIT_EMAIL', email: 'ada@example.com' }
 */
export function formEvent(form: URLSearchParams | FormData): UiEvent | null {
  try {
    const type = lastString(form, 'event');
    return type === null ? null : decode(form, type);
  } catch {
    return null;
  }
}
