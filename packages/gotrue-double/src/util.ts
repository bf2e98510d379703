/**
 * Small helpers every part of the double uses: hashes as GoTrue stores them, ISO times, one-time codes and
 * reading untyped JSON bodies.
 * @module
 */
import { randomInt, sha224 as sha224Bytes, toHex } from './hash.ts';

/** Lower-case hex SHA-224, as GoTrue hashes `address + otp`. */
export const sha224 = (s: string) => toHex(sha224Bytes(s));

/** An ISO time, or `undefined` (dropped from JSON) for a time never set. */
export const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());

/** A six-digit one-time code. */
export const otp = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** GoTrue's formatPhoneNumber: the digits only. */
export const formatPhone = (phone: string) => phone.replace(/[^\d]/g, '');

/** Whether a JSON value is an object. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A JSON value as a string, `''` when it is none. */
export const str = (v: unknown) => (typeof v === 'string' ? v : '');
