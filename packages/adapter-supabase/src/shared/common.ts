/**
 * What the browser provider and the server's form provider answer alike, whatever client they call GoTrue
 * with: their capabilities, the tenant refusal and the sign-in method lookup Supabase does not have.
 * @module
 */
import {
  ACCOUNT_OPERATIONS,
  type AccountOperation,
  AuthError,
  type ProviderCapabilities,
  requireEmail,
  type SecondFactorKind,
  type SignInMethod,
} from '@doorway/auth-core';
import { SUPABASE_ACTION_MODES } from './links.ts';

/** What differs between the providers' capabilities: what a browser (or a configured widget) adds. */
export interface CapabilityOptions {
  /** Doorway ids of the OAuth providers enabled in the project. */
  federated: readonly string[] | undefined;
  /** Whether phone sign-in is offered. */
  phone: boolean;
  /** Whether popup and redirect sign-ins are offered (a browser is there). */
  browser: boolean;
  /** Whether a captcha guards the requests. */
  captcha: boolean;
  /** The second factors offered (none or absent: the capability is left out). */
  secondFactors?: readonly SecondFactorKind[];
  /** Whether passkeys are offered (the browser provider, with the project's passkeys on). */
  passkeys?: boolean;
  /** Whether account management is offered (the browser provider). */
  account?: boolean;
}

/**
 * The account operations of the browser provider: all but `deleteAccount`, which needs the service key.
 */
export const SUPABASE_ACCOUNT_OPERATIONS: readonly AccountOperation[] = Object.freeze(
  ACCOUNT_OPERATIONS.filter((operation) => operation !== 'deleteAccount'),
);

/** The capabilities of a Supabase provider: the same Supabase, minus what needs a browser. */
export function supabaseCapabilities(options: CapabilityOptions): ProviderCapabilities {
  return Object.freeze({
    password: true,
    emailLink: true,
    phone: options.phone,
    anonymous: true,
    federated: Object.freeze([...(options.federated ?? [])]),
    popup: options.browser,
    redirect: options.browser,
    tenants: false,
    // Supabase has no lookup: the flow takes the combined, enumeration-safe path.
    reliableSignInMethodLookup: false,
    actionCodes: SUPABASE_ACTION_MODES,
    captcha: options.captcha,
    ...(options.secondFactors?.length ? { secondFactors: Object.freeze([...options.secondFactors]) } : {}),
    ...(options.passkeys ? { passkeys: true } : {}),
    ...(options.account ? { account: SUPABASE_ACCOUNT_OPERATIONS } : {}),
  });
}

/** `setTenant`: Supabase Auth has no tenants, only the project itself (`null`). */
export async function refuseTenant(tenantId: string | null): Promise<void> {
  if (tenantId !== null) throw new AuthError('operation-not-allowed');
}

/** `fetchSignInMethodsForEmail`: checks the address, then says "unknown". */
export async function lookupSignInMethods(email: string): Promise<SignInMethod[]> {
  requireEmail(email);
  // Supabase has no such lookup (and would be enumerable if it had): always "unknown".
  return [];
}
