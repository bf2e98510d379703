/**
 * `@doorway/ui-cards/account`: the sections of an account page (profile, email address, password, sign-in
 * methods, devices, deleting the account, second factors and passkeys), each shown only where the provider's
 * `capabilities.account` lists what it runs. A separate entry: the sign-in widget never imports it, and its QR
 * code library loads only when the authenticator step shows.
 * @example
 * import { SecondFactors } from '@doorway/ui-cards/account';
 * import '@doorway/ui-cards/styles.css';
 * import '@doorway/ui-cards/account.css';
 * <SecondFactors provider={provider} reauthenticate={reauthenticate} onChange={(factors) => save(factors)} />
 * @module
 */

export { ChangePassword, type ChangePasswordProps } from './ChangePassword.tsx';
export { DeleteAccount, type DeleteAccountProps } from './DeleteAccount.tsx';
export { Devices, type DevicesProps } from './Devices.tsx';
export { EmailAddress, type EmailAddressProps } from './EmailAddress.tsx';
export type { AccountProvider } from './env.ts';
export { PasskeyOffer, type PasskeyOfferAnswer, type PasskeyOfferProps } from './PasskeyOffer.tsx';
export { type PasskeyProvider, Passkeys, type PasskeysProps } from './Passkeys.tsx';
export { Profile, type ProfileProps } from './Profile.tsx';
export { SecondFactors, type SecondFactorsProps } from './SecondFactors.tsx';
export type { AccountSectionProps, AccountSectionProvider } from './Section.tsx';
export { methodName, SignInMethods, type SignInMethodsProps } from './SignInMethods.tsx';
export {
  accountText,
  deleteText,
  devicesText,
  emailText,
  methodsText,
  passkeyOfferText,
  passkeyText,
  passwordText,
  profileText,
} from './text.ts';
