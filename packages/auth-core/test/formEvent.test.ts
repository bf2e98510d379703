import { describe, expect, it } from 'vitest';
import { UI_EVENT_TYPES } from '../src/events.ts';
import { formEvent, type UiEvent } from '../src/formEvent.ts';

const form = (query: string) => new URLSearchParams(query);

describe('formEvent', () => {
  // One row per UI event: the form a card posts and the event it stands for.
  const table: [string, UiEvent | null][] = [
    ['event=CHOOSE_TENANT&tenantId=acme', { type: 'CHOOSE_TENANT', tenantId: 'acme' }],
    ['event=CHOOSE_PROVIDER&providerId=google.com', { type: 'CHOOSE_PROVIDER', providerId: 'google.com' }],
    ['event=SUBMIT_EMAIL&email=ada%40example.com', { type: 'SUBMIT_EMAIL', email: 'ada@example.com' }],
    ['event=SUBMIT_PASSWORD&password=%20s3cret%20', { type: 'SUBMIT_PASSWORD', password: ' s3cret ' }],
    [
      'event=SUBMIT_SIGN_UP&email=a%40b.co&name=Ada+L&password=pw123456',
      { type: 'SUBMIT_SIGN_UP', email: 'a@b.co', name: 'Ada L', password: 'pw123456' },
    ],
    ['event=SUBMIT_RECOVERY&email=a%40b.co', { type: 'SUBMIT_RECOVERY', email: 'a@b.co' }],
    ['event=GO_TO_RECOVERY', { type: 'GO_TO_RECOVERY' }],
    ['event=GO_TO_SIGN_UP', { type: 'GO_TO_SIGN_UP' }],
    ['event=SUBMIT_PHONE&phoneNumber=%2B16505550100&country=US', null],
    ['event=SUBMIT_CODE&code=123456', null],
    ['event=RESEND_CODE', null],
    ['event=CHOOSE_SECOND_FACTOR&factorUid=mfa-2', { type: 'CHOOSE_SECOND_FACTOR', factorUid: 'mfa-2' }],
    ['event=SEND_SECOND_FACTOR_SMS', null],
    ['event=SUBMIT_SECOND_FACTOR_CODE&code=123456', { type: 'SUBMIT_SECOND_FACTOR_CODE', code: '123456' }],
    ['event=CHANGE_PHONE', { type: 'CHANGE_PHONE' }],
    ['event=EMAIL_NOT_RECEIVED', { type: 'EMAIL_NOT_RECEIVED' }],
    ['event=RESEND_EMAIL', { type: 'RESEND_EMAIL' }],
    ['event=CONFIRM_EMAIL&email=a%40b.co', { type: 'CONFIRM_EMAIL', email: 'a@b.co' }],
    ['event=SIGN_IN_FEDERATED', null],
    ['event=SEND_LINKING_EMAIL', { type: 'SEND_LINKING_EMAIL' }],
    ['event=CONTINUE', { type: 'CONTINUE' }],
    ['event=SUBMIT_NEW_PASSWORD&password=n3w-pass', { type: 'SUBMIT_NEW_PASSWORD', password: 'n3w-pass' }],
    ['event=RETRY', { type: 'RETRY' }],
    ['event=CANCEL', { type: 'CANCEL' }],
    ['event=SIGN_OUT', { type: 'SIGN_OUT' }],
    ['event=SIGN_IN_AGAIN', { type: 'SIGN_IN_AGAIN' }],
  ];

  it('has a row for every UI event type', () => {
    const covered = table.map(([query]) => form(query).get('event'));
    expect(covered.sort()).toEqual([...UI_EVENT_TYPES].sort());
  });

  it.each(table)('%s', (query, expected) => {
    expect(formEvent(form(query))).toEqual(expected);
  });

  it('reads FormData as URLSearchParams', () => {
    const data = new FormData();
    data.append('event', 'SUBMIT_EMAIL');
    data.append('email', 'ada@example.com');
    expect(formEvent(data)).toEqual({ type: 'SUBMIT_EMAIL', email: 'ada@example.com' });
  });

  it('posts the default tenant as the empty string', () => {
    expect(formEvent(form('event=CHOOSE_TENANT&tenantId='))).toEqual({
      type: 'CHOOSE_TENANT',
      tenantId: null,
    });
    expect(formEvent(form('event=CHOOSE_TENANT'))).toEqual({ type: 'CHOOSE_TENANT', tenantId: null });
  });

  it('takes the last event: a named submit button comes after the hidden input', () => {
    expect(formEvent(form('event=SUBMIT_PASSWORD&password=x&event=GO_TO_RECOVERY'))).toEqual({
      type: 'GO_TO_RECOVERY',
    });
  });

  it('takes the last value of a repeated field, and gives a missing field as the empty string', () => {
    expect(formEvent(form('event=SUBMIT_EMAIL&email=a%40b.co&email=c%40d.co'))).toEqual({
      type: 'SUBMIT_EMAIL',
      email: 'c@d.co',
    });
    expect(formEvent(form('event=SUBMIT_SIGN_UP&email=a%40b.co'))).toEqual({
      type: 'SUBMIT_SIGN_UP',
      email: 'a@b.co',
      name: '',
      password: '',
    });
  });

  it('keeps only the fields of the event, whatever else is posted', () => {
    expect(formEvent(form('event=CANCEL&email=a%40b.co&__proto__=x&constructor=y'))).toEqual({
      type: 'CANCEL',
    });
    expect(formEvent(form('event=SUBMIT_EMAIL&email=a%40b.co&type=SIGN_OUT'))).toEqual({
      type: 'SUBMIT_EMAIL',
      email: 'a@b.co',
    });
  });

  it('decodes no event, an unknown one, or one spelled another way to null', () => {
    expect(formEvent(form(''))).toBeNull();
    expect(formEvent(form('email=a%40b.co'))).toBeNull();
    expect(formEvent(form('event='))).toBeNull();
    expect(formEvent(form('event=START&url=https%3A%2F%2Fevil.example'))).toBeNull();
    expect(formEvent(form('event=PROVIDER_RESOLVED&id=1'))).toBeNull();
    expect(formEvent(form('event=TIMER&name=success'))).toBeNull();
    expect(formEvent(form('event=CALLBACK_RESULT&redirect=true'))).toBeNull();
    expect(formEvent(form('event=submit_email&email=a%40b.co'))).toBeNull();
    expect(formEvent(form('event=toString'))).toBeNull();
    expect(formEvent(form('event=__proto__'))).toBeNull();
  });

  it('refuses a field over its limit instead of cutting it into another value', () => {
    expect(formEvent(form(`event=SUBMIT_EMAIL&email=${'a'.repeat(320)}`))).toEqual({
      type: 'SUBMIT_EMAIL',
      email: 'a'.repeat(320),
    });
    expect(formEvent(form(`event=SUBMIT_EMAIL&email=${'a'.repeat(321)}`))).toBeNull();
    expect(formEvent(form(`event=SUBMIT_PASSWORD&password=${'p'.repeat(4096)}`))).not.toBeNull();
    expect(formEvent(form(`event=SUBMIT_PASSWORD&password=${'p'.repeat(4097)}`))).toBeNull();
    expect(
      formEvent(form(`event=SUBMIT_SIGN_UP&email=a%40b.co&password=pw1234&name=${'n'.repeat(257)}`)),
    ).toBeNull();
    expect(formEvent(form(`event=CHOOSE_PROVIDER&providerId=${'g'.repeat(100_000)}`))).toBeNull();
    expect(formEvent(form(`event=CHOOSE_TENANT&tenantId=${'t'.repeat(257)}`))).toBeNull();
  });

  it('treats a file where a string belongs as missing', () => {
    const data = new FormData();
    data.append('event', 'SUBMIT_EMAIL');
    data.append('email', new Blob(['ada@example.com']), 'email.txt');
    expect(formEvent(data)).toEqual({ type: 'SUBMIT_EMAIL', email: '' });
    const fileEvent = new FormData();
    fileEvent.append('event', new Blob(['SIGN_OUT']), 'event.txt');
    expect(formEvent(fileEvent)).toBeNull();
  });

  it('never throws, whatever it is handed', () => {
    const broken = {
      getAll: () => {
        throw new Error('boom');
      },
    } as unknown as URLSearchParams;
    expect(formEvent(broken)).toBeNull();
  });
});
