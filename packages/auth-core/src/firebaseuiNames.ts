/**
 * FirebaseUI v6's option names that Doorway spells differently or does without, each with what to use
 * instead. {@link normalizeConfig} adds the hint to its error in development builds only (the table stays
 * out of production bundles); `fromFirebaseUiConfig` reports the names it cannot carry over with it.
 * @module
 */

/** FirebaseUI option name → what to do instead, as the end of a sentence. */
export const FIREBASEUI_NAMES: Readonly<Record<string, string>> = {
  signInSuccessWithAuthResult:
    "FirebaseUI's callback: use `callbacks.signInSuccess(result, redirectUrl)` (return `false` to stay on the page)",
  credentialHelper:
    "FirebaseUI's account chooser / one-tap has no equivalent: remove it (browsers fill the inputs from their `autocomplete`)",
  queryParameterForSignInSuccessUrl:
    "FirebaseUI's option has no equivalent: the widget reads the `signInSuccessUrl` query parameter (checked against `allowedOrigins`)",
  queryParameterForWidgetMode:
    "FirebaseUI's option has no equivalent: the widget reads `mode` and `oobCode` from the page URL",
  widgetUrl:
    "FirebaseUI's option has no equivalent: links are handled where the widget is; for email links set the email option's `emailLinkUrl`",
  immediateFederatedRedirect:
    'FirebaseUI\'s option has no equivalent: list the one federated provider with `signInFlow: "redirect"`',
  siteName: "FirebaseUI's option has no equivalent: remove it",
  popupMode: "FirebaseUI's option has no equivalent: remove it",
  adminRestrictedOperation:
    "FirebaseUI's option: use the email option's `disableSignUp: { adminEmail, helpLink }`",
  signInUiShown: "FirebaseUI's callback: use `callbacks.uiShown`",
  selectTenantUiShown: "FirebaseUI's callback: use `callbacks.uiShown` (the tenant chooser is a first card)",
  selectTenantUiHidden: "FirebaseUI's callback has no equivalent: remove it",
  beforeSignInSuccess: "FirebaseUI's callback: use `callbacks.signInSuccess`",
  fullLabel: "FirebaseUI's name: use `label`",
  providerName: "FirebaseUI's name: use `name`",
  whitelistedCountries: "FirebaseUI's name: use `allowedCountries`",
  blacklistedCountries: "FirebaseUI's name: use `blockedCountries`",
  defaultNationalNumber: "FirebaseUI's name: use `loginHint` (the whole number, with its country code)",
  recaptchaParameters:
    "FirebaseUI's option belongs to the Firebase adapter: pass it as `recaptcha` to `createFirebaseProvider`",
  emailLinkSignIn: "FirebaseUI's action code settings: set `emailLinkUrl` (the URL the link opens)",
  loginHintKey: "FirebaseUI's option has no equivalent: remove it",
  clientId: "FirebaseUI's one-tap setting has no equivalent: remove it",
  authMethod: "FirebaseUI's one-tap setting has no equivalent: remove it",
  hd: 'a Google parameter: put it in `customParameters: { hd }`; for a tenant use `emailDomains`',
  status: "FirebaseUI's `disableSignUp.status`: write `disableSignUp: true`, or `{ adminEmail, helpLink }`",
  tenantId: "FirebaseUI's name: a tenant's id is `id` (`null` for the project itself)",
  tosUrl: 'set it once, at the top level of the config',
  privacyPolicyUrl: 'set it once, at the top level of the config',
  signInFlow: 'set it once, at the top level of the config',
  logoUrl: "FirebaseUI's option has no equivalent: remove it",
};

/** What to use instead of FirebaseUI's name `key`, as `; …` to end a sentence ('' for any other name). */
export function firebaseUiHint(key: string): string {
  return Object.hasOwn(FIREBASEUI_NAMES, key) ? `; ${FIREBASEUI_NAMES[key]}` : '';
}
