/**
 * `@doorway/gotrue-double`: an in-memory TEST DOUBLE of the Supabase Auth (GoTrue) REST API, which
 * `@doorway/adapter-supabase` is checked against (and the playground's "Supabase (local GoTrue double)" mode
 * runs on). It is not Supabase: see the README. Needs `msw` (its handlers are msw handlers; `double.fetch`
 * is not).
 * @module
 */
export { createGoTrueDouble } from './gotrue-double.ts';
export { GOTRUE_DEFAULT_TEMPLATES } from './templates.ts';
export type {
  DoubleEmail,
  DoubleError,
  DoubleIdpIdentity,
  DoubleSms,
  DoubleTemplateName,
  GoTrueDouble,
  GoTrueDoubleAdmin,
  GoTrueDoubleOptions,
  GoTrueDoubleState,
} from './types.ts';
