/**
 * `@doorway/ui-cards/account`: the second-factor and passkey cards of an account page. A separate entry: the sign-in
 * widget never imports it, and its QR code library loads only when the authenticator step shows.
 * @example
 * import { SecondFactors } from '@doorway/ui-cards/account';
 * import '@doorway/ui-cards/styles.css';
 * import '@doorway/ui-cards/account.css';
 * <SecondFactors provider={provider} reauthenticate={reauthenticate} onChange={(factors) => save(factors)} />
 * @module
 */

export type { AccountProvider } from './env.ts';
export { PasskeyOffer, type PasskeyOfferAnswer, type PasskeyOfferProps } from './PasskeyOffer.tsx';
export { type PasskeyProvider, Passkeys, type PasskeysProps } from './Passkeys.tsx';
export { SecondFactors, type SecondFactorsProps } from './SecondFactors.tsx';
export { accountText, passkeyOfferText, passkeyText } from './text.ts';
