/**
 * The context every contract group registers its tests with: the gates, decided once per suite, and the
 * harness of the running test.
 * @module
 */
import type { ActionMode, AuthProvider, ProviderCapabilities } from '@doorway/auth-core';
import type { ContractHarness, ContractInspect, ProviderContractOptions } from './types.ts';

/** Which optional harness hooks the adapter provides; the groups that need one are gated on it. */
export interface ContractHooks {
  actionCode: boolean;
  federatedCredential: boolean;
  idp: boolean;
  disableUser: boolean;
  authenticator: boolean;
}

/** The gates of a suite plus the provider and inspection of the running test's fresh harness. */
export interface ContractContext {
  /** The provider of the running test (read inside tests only). */
  readonly provider: AuthProvider;
  /** The backend inspection of the running test (read inside tests only). */
  readonly inspect: ContractInspect;
  /** The provider's capabilities with the suite's overrides. */
  readonly caps: ProviderCapabilities;
  readonly hooks: ContractHooks;
  /** Continue URL for emailed links. */
  readonly continueUrl: string;
  /** The two tenants of the tenant group. */
  readonly tenantIds: readonly [string, string];
  /** Whether sign-in method lookups tell the truth (no enumeration protection). */
  readonly reliable: boolean;
  /** The first federated provider id, the one the federated groups use. */
  readonly federatedId: string | undefined;
  /** Whether a federated identity colliding with a password account's email is rejected. */
  readonly accountExistsError: boolean;
  /** Whether the provider handles action codes of `mode`. */
  supportsCode(mode: ActionMode): boolean;
}

/**
 * Reads the gates from one throw-away harness (groups are gated at collection time); `current` gives the
 * harness of the running test.
 */
export async function createContractContext(
  options: ProviderContractOptions,
  current: () => ContractHarness,
): Promise<ContractContext> {
  const probe = await options.create();
  const caps: ProviderCapabilities = { ...probe.provider.capabilities, ...options.capabilities };
  const hooks: ContractHooks = {
    actionCode: probe.inspect.actionCode !== undefined,
    federatedCredential: probe.inspect.federatedCredential !== undefined,
    idp: probe.inspect.idp !== undefined,
    disableUser: probe.inspect.disableUser !== undefined,
    authenticator: probe.inspect.authenticator !== undefined,
  };
  await probe.dispose?.();
  return {
    get provider() {
      return current().provider;
    },
    get inspect() {
      return current().inspect;
    },
    caps,
    hooks,
    continueUrl: options.continueUrl ?? 'http://localhost/__/auth/action',
    tenantIds: options.tenantIds ?? ['tenant-a', 'tenant-b'],
    reliable: caps.reliableSignInMethodLookup,
    federatedId: caps.federated[0],
    accountExistsError: options.federatedAccountExistsError ?? true,
    supportsCode: (mode) => caps.actionCodes.includes(mode),
  };
}
