/**
 * Test data: the passwords and unknown code the contract uses, and users unique to each test.
 * @module
 */

/** The password of the accounts the tests create. */
export const PASSWORD = 'Secret-123';
/** The password a reset replaces {@link PASSWORD} with. */
export const NEW_PASSWORD = 'N3w-secret-456';
/** An action code no backend issued. */
export const UNKNOWN_CODE = 'not-a-real-code';

// Unique per run and per call, so backends that keep users between tests (emulators) never clash.
const RUN = Math.random().toString(36).slice(2, 8);
let sequence = 0;

/** An email address no other test (of this run or another) uses. */
export function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${RUN}-${sequence}@example.com`;
}

/** An E.164 phone number no other test uses. */
export function uniquePhone(): string {
  sequence += 1;
  const base = Number.parseInt(RUN, 36) % 900_000;
  return `+16505${String((base + sequence) % 1_000_000).padStart(6, '0')}`;
}

/** A federated subject id no other test uses. */
export function uniqueSub(label: string): string {
  sequence += 1;
  return `${label}-${RUN}-${sequence}`;
}
