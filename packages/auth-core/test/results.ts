import type { SignInResult } from '../src/provider.ts';

/** Ann's password sign-in, as a provider resolves it (`isNewUser` as given). */
export function annSignIn(isNewUser = false): SignInResult {
  return {
    user: {
      uid: 'u1',
      email: 'ann@example.com',
      displayName: 'Ann',
      phoneNumber: null,
      emailVerified: true,
      isAnonymous: false,
      providerIds: ['password'],
      tenantId: null,
    },
    isNewUser,
    providerId: 'password',
  };
}
