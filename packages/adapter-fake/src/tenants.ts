/**
 * Tenants: a client session selects one; users, codes and SMS sessions belong to the tenant they were
 * made in, and every lookup stays within the session's tenant.
 * @module
 */
import { fail } from './util.ts';
import type { FakeContext, Session } from './world.ts';

/** `setTenant`: `null` (the default tenant), or a tenant the `tenants` option allows. */
export function setTenant({ world, config }: FakeContext, s: Session, tenant: string | null): void {
  const allowed = config.options.tenants;
  if (
    tenant !== null &&
    (!world.capabilities.tenants || (allowed !== undefined && !allowed.includes(tenant)))
  ) {
    fail('generic');
  }
  s.tenantId = tenant;
}
