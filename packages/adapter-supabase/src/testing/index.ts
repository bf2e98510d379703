/**
 * `@doorway/adapter-supabase/testing`: the in-memory GoTrue TEST DOUBLE the adapter is checked against (and
 * the playground's "Supabase (local GoTrue double)" mode runs on). It is not Supabase: see the README's
 * "Checked against the double only". Needs `msw` (its handlers are msw handlers; `double.fetch` is not).
 * @module
 */
export {
  createGoTrueDouble,
  type DoubleEmail,
  type DoubleError,
  type DoubleIdpIdentity,
  type DoubleSms,
  type DoubleTemplateName,
  GOTRUE_DEFAULT_TEMPLATES,
  type GoTrueDouble,
  type GoTrueDoubleAdmin,
  type GoTrueDoubleOptions,
  type GoTrueDoubleState,
} from './gotrue-double.ts';
