/** What a card's form POST carries: the event its fields encode, and the flow state sealed in its cookie. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.ts';
import { UI_EVENT_TYPES } from '../src/events.ts';
import {
  assertSealingSecret,
  createSealer,
  formEvent,
  openState,
  SEALED_STATE_TTL_MS,
  type SealOptions,
  sealingSecretProblem,
  sealState,
  type UiEvent,
} from '../src/formPost.ts';

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

// Test values only, shaped as `openssl rand -base64 48` / `-hex 32` output.
const SECRET = 'sI-bvMrdKfXGKNH9gmmKjlb-SZsW2gwFe8hxhHDuWg8';
const OTHER = 'h2sC1NkV21XqZ5_i8QOzuzSH-q_lQDVtueX-EhaaC4o';
const NEWER = '3wzrQXiEivAJLGz0UBPfvsrNkDFqY00xzewxM3w2XdY';
const T0 = Date.UTC(2025, 0, 1);
const PURPOSE = 'doorway_flow';
const value = { card: 'emailEntry', email: 'ada@example.com', n: [1, 2, 3] };
const at = (now: number, secret: SealOptions['secret'] = SECRET, purpose = PURPOSE): SealOptions => ({
  secret,
  purpose,
  now,
});

/** Changes one byte of the sealed bytes (IV, ciphertext or tag), keeping the encoding valid. */
function flipByte(sealed: string, index: number): string {
  const bytes = Buffer.from(sealed.slice(3), 'base64url');
  const i = index < 0 ? bytes.length + index : index;
  bytes[i] = (bytes[i] ?? 0) ^ 0x01;
  return `v2.${bytes.toString('base64url')}`;
}

describe('sealState / openState', () => {
  it('round-trips a value, unreadable in between, with the time its flow began', async () => {
    const sealed = await sealState(value, at(T0));
    expect(sealed).toMatch(/^v2\.[\w-]+$/);
    expect(sealed).not.toContain('ada');
    expect(Buffer.from(sealed.slice(3), 'base64url').toString('latin1')).not.toContain('ada');
    expect(await openState(sealed, at(T0))).toEqual({ value, startedAt: T0 });
  });

  it('uses a fresh IV each time', async () => {
    const a = await sealState(value, at(T0));
    const b = await sealState(value, at(T0));
    expect(a).not.toBe(b);
    expect((await openState(b, at(T0)))?.value).toEqual(value);
  });

  it('refuses any changed byte (IV, ciphertext, tag)', async () => {
    const sealed = await sealState(value, at(T0));
    for (const index of [0, 5, 11, 12, 20, -17, -1]) {
      expect(await openState(flipByte(sealed, index), at(T0))).toBeNull();
    }
  });

  it('refuses a value sealed with another secret', async () => {
    const sealed = await sealState(value, at(T0));
    expect(await openState(sealed, at(T0, OTHER))).toBeNull();
  });

  it('returns null for malformed input, never throws', async () => {
    const sealed = await sealState(value, at(T0));
    for (const input of [
      '',
      'v2.',
      'v2',
      `v1.${sealed.slice(3)}`,
      `${sealed}.x`,
      'v2.!!!!',
      'v2.AAAA',
      sealed.slice(0, 20),
      `v2.${'A'.repeat(20_000)}`,
      null,
      undefined,
      42,
      { sealed },
    ]) {
      expect(await openState(input, at(T0))).toBeNull();
    }
    expect(await openState(sealed, at(T0, 'short'))).toBeNull();
  });
});

describe('sealed state: absolute lifetime (issue 24)', () => {
  it('stops opening an hour after the flow began, with an injected clock', async () => {
    const sealed = await sealState(value, at(T0));
    expect(await openState(sealed, at(T0 + SEALED_STATE_TTL_MS - 1))).not.toBeNull();
    expect(await openState(sealed, at(T0 + SEALED_STATE_TTL_MS))).toBeNull();
    expect(SEALED_STATE_TTL_MS).toBe(3_600_000);
  });

  it('sealing again keeps the start: a copy re-sealed every 10 minutes still dies at the hour', async () => {
    let sealed = await sealState(value, at(T0));
    let now = T0;
    for (let i = 0; i < 5; i++) {
      now += 10 * 60 * 1000;
      const opened = await openState(sealed, at(now));
      expect(opened?.startedAt).toBe(T0);
      sealed = await sealState(opened?.value, { ...at(now), startedAt: opened?.startedAt ?? now });
    }
    expect(await openState(sealed, at(T0 + SEALED_STATE_TTL_MS - 1))).not.toBeNull();
    expect(await openState(sealed, at(T0 + SEALED_STATE_TTL_MS))).toBeNull();
  });
});

describe('sealed state: bound to its purpose (issue 24)', () => {
  it('a value sealed for one cookie name does not open under another', async () => {
    const sealed = await sealState(value, at(T0, SECRET, 'doorway_flow'));
    expect(await openState(sealed, at(T0, SECRET, '__Host-doorway_flow'))).toBeNull();
    expect(await openState(sealed, at(T0, SECRET, 'other'))).toBeNull();
    expect((await openState(sealed, at(T0, SECRET, 'doorway_flow')))?.value).toEqual(value);
  });
});

describe('sealed state: rotation (issue 24)', () => {
  it('the first secret seals, every listed one opens; a dropped secret no longer opens', async () => {
    const old = await sealState(value, at(T0, SECRET));
    const rotated = [NEWER, SECRET] as const;
    expect((await openState(old, at(T0, rotated)))?.value).toEqual(value);
    const fresh = await sealState(value, at(T0, rotated));
    expect((await openState(fresh, at(T0, NEWER)))?.value).toEqual(value);
    expect(await openState(fresh, at(T0, SECRET))).toBeNull();
    expect(await openState(old, at(T0, [NEWER]))).toBeNull();
  });

  it('a Sealer keeps working across many values (keys derived once)', async () => {
    const sealer = createSealer([NEWER, SECRET], PURPOSE);
    const sealed = await Promise.all([1, 2, 3].map((n) => sealer.seal({ n }, T0)));
    expect(await Promise.all(sealed.map(async (s) => (await sealer.open(s, T0))?.value))).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
  });
});

describe('sealed state: a secret must be random (issue 24)', () => {
  it('refuses a human secret, however long, saying how to make one', async () => {
    for (const weak of [
      'x'.repeat(64),
      'a-test-secret-that-is-long-enough-0123',
      'server-flow-test-secret-0123456789abcdef-and-more',
      'CorrectHorseBatteryStapleCorrectHorseBattery',
      'abcdefabcdefabcdefabcdefabcdef12', // 32 characters, hex-looking: 16 bytes
      '0123456789abcdef0123456789abcdef', // 32 hex digits: 16 bytes
      'Zm9vYmFyYmF6cXV4', // base64 of 12 bytes
      'has spaces and punctuation! 0123456789ABCDEFGHIJKLMNOP',
    ]) {
      expect(sealingSecretProblem(weak), weak).toMatch(/openssl rand -base64 48/);
      await expect(sealState(value, at(T0, weak))).rejects.toThrow(ConfigError);
    }
    expect(() => assertSealingSecret([SECRET, 'too-weak'])).toThrow(/`secret\[1\]` must be random/);
    expect(() => assertSealingSecret([])).toThrow(ConfigError);
  });

  it('accepts 32+ random bytes as base64, base64url or hex', () => {
    for (let i = 0; i < 50; i++) {
      const bytes = randomBytes(32);
      for (const encoded of [
        bytes.toString('base64'),
        bytes.toString('base64url'),
        bytes.toString('hex'),
        randomBytes(48).toString('base64'),
      ]) {
        expect(sealingSecretProblem(encoded), encoded).toBeNull();
      }
    }
    expect(
      sealingSecretProblem('5c670ea56037e642a5b2845b01b9f78b4bcbdca5fe0ab60100627f7bd1c0311d'),
    ).toBeNull();
  });
});
