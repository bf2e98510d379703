/**
 * `@doorway/auth-core/firebaseui`: {@link fromFirebaseUiConfig} turns a FirebaseUI v6 config object into
 * Doorway's, and names every option that has no equivalent. An entry of its own, so the widget's chunks
 * never carry it.
 * @module
 */
import type {
  EmailOptionInput,
  FederatedOptionInput,
  PhoneOptionInput,
  SignInOptionInput,
  TenantInput,
  WidgetCallbacks,
  WidgetConfigInput,
} from './config.ts';
import type { ErrorInfo } from './errors.ts';
import { FIREBASEUI_NAMES } from './firebaseuiNames.ts';
import { messageFor } from './messages.ts';
import type { AuthCredential, AuthUser, SignInResult } from './provider.ts';

/** One FirebaseUI sign-in option: a provider id (`password`, `phone`, `google.com`…) or an object. */
export type FirebaseUiSignInOption = string | ({ provider: string } & Record<string, unknown>);

/** What FirebaseUI's `signInSuccessWithAuthResult` receives, built from Doorway's {@link SignInResult}. */
export interface FirebaseUiAuthResult {
  user: AuthUser;
  credential: AuthCredential | null;
  additionalUserInfo: { isNewUser: boolean; providerId: string };
}

/** What FirebaseUI's `signInFailure` receives: `firebaseui/anonymous-upgrade-merge-conflict` and its credential. */
export interface FirebaseUiError {
  code: string;
  message: string;
  credential: AuthCredential | null;
}

/** FirebaseUI's callbacks (method syntax, so callbacks typed with Firebase's own types are accepted). */
export interface FirebaseUiCallbacks {
  signInSuccessWithAuthResult?(authResult: FirebaseUiAuthResult, redirectUrl?: string): boolean;
  signInFailure?(error: FirebaseUiError): Promise<void> | void;
  uiShown?(): void;
  [name: string]: unknown;
}

/** One tenant of FirebaseUI's multi-tenant config (`tenants` keyed by tenant id, `_` for the project). */
export interface FirebaseUiTenantConfig {
  displayName?: string;
  signInOptions?: readonly FirebaseUiSignInOption[];
  [name: string]: unknown;
}

/** A FirebaseUI v6 config object (`firebaseui.auth.Config`), plus the multi-tenant `tenants` and `displayMode`. */
export interface FirebaseUiConfig {
  signInOptions?: readonly FirebaseUiSignInOption[];
  callbacks?: FirebaseUiCallbacks;
  signInSuccessUrl?: string;
  signInFlow?: string;
  tosUrl?: string | (() => void);
  privacyPolicyUrl?: string | (() => void);
  autoUpgradeAnonymousUsers?: boolean;
  displayMode?: string;
  tenants?: Readonly<Record<string, FirebaseUiTenantConfig>>;
  [name: string]: unknown;
}

/** The result of {@link fromFirebaseUiConfig}. */
export interface FirebaseUiConversion {
  /** Doorway's config, for `<SignInWidget config>` or `normalizeConfig`. */
  config: WidgetConfigInput;
  /** Each FirebaseUI option with no equivalent, as `path: why` (empty when everything carried over). */
  unsupported: string[];
}

type Bag = Record<string, unknown>;

const why = (key: string): string =>
  (Object.hasOwn(FIREBASEUI_NAMES, key) ? FIREBASEUI_NAMES[key] : undefined) ??
  'is not a FirebaseUI v6 option Doorway knows: left out';

/** Reports every key of `from` not in `handled` as `at + key: why`. */
function leftOver(from: Bag, handled: readonly string[], at: string, unsupported: string[]): void {
  for (const key of Object.keys(from)) {
    if (!handled.includes(key) && from[key] !== undefined) unsupported.push(`${at}${key}: ${why(key)}`);
  }
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;

/** Copies the keys of `entries` whose value is not `undefined` (exactOptionalPropertyTypes-safe). */
function defined<T extends object>(entries: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined)) as T;
}

function emailOption(o: Bag, at: string, unsupported: string[]): EmailOptionInput {
  const disable = o.disableSignUp as Bag | undefined;
  let emailLinkUrl: string | undefined;
  if (typeof o.emailLinkSignIn === 'function') {
    const settings = (o.emailLinkSignIn as () => Bag | undefined)() ?? {};
    emailLinkUrl = str(settings.url);
    leftOver(settings, ['url', 'handleCodeInApp'], `${at}emailLinkSignIn().`, unsupported);
  }
  leftOver(
    o,
    [
      'provider',
      'signInMethod',
      'requireDisplayName',
      'forceSameDevice',
      'disableSignUp',
      'emailLinkSignIn',
      // A tenant's `hd` becomes its `emailDomains`.
      ...(at.startsWith('tenants.') ? ['hd'] : []),
    ],
    at,
    unsupported,
  );
  if (disable !== undefined)
    leftOver(disable, ['status', 'adminEmail', 'helpLink'], `${at}disableSignUp.`, unsupported);
  return defined<EmailOptionInput>({
    provider: 'email',
    signInMethod: o.signInMethod === 'emailLink' ? 'emailLink' : 'password',
    requireDisplayName: typeof o.requireDisplayName === 'boolean' ? o.requireDisplayName : undefined,
    forceSameDevice: o.forceSameDevice === true ? true : undefined,
    disableSignUp:
      disable?.status === true
        ? defined<{ adminEmail?: string; helpLink?: string }>({
            adminEmail: str(disable.adminEmail),
            helpLink: str(disable.helpLink),
          })
        : undefined,
    emailLinkUrl,
  });
}

/** FirebaseUI's country lists also take dial codes (`+44`); Doorway takes ISO codes only. */
function countryList(value: unknown, key: string, at: string, unsupported: string[]): string[] | undefined {
  const list = strings(value);
  if (list === undefined) return undefined;
  const dialCodes = list.filter((c) => !/^[a-z]{2}$/i.test(c));
  if (dialCodes.length > 0) {
    unsupported.push(
      `${at}${key}: ${dialCodes.join(', ')}: dial codes have no equivalent (list ISO country codes)`,
    );
  }
  return list.filter((c) => /^[a-z]{2}$/i.test(c));
}

function phoneOption(o: Bag, at: string, unsupported: string[]): PhoneOptionInput {
  leftOver(
    o,
    ['provider', 'defaultCountry', 'loginHint', 'whitelistedCountries', 'blacklistedCountries'],
    at,
    unsupported,
  );
  return defined<PhoneOptionInput>({
    provider: 'phone',
    defaultCountry: str(o.defaultCountry),
    loginHint: str(o.loginHint),
    allowedCountries: countryList(o.whitelistedCountries, 'whitelistedCountries', at, unsupported),
    blockedCountries: countryList(o.blacklistedCountries, 'blacklistedCountries', at, unsupported),
  });
}

function federatedOption(
  o: Bag & { provider: string },
  at: string,
  unsupported: string[],
): FederatedOptionInput {
  leftOver(
    o,
    ['provider', 'providerName', 'fullLabel', 'scopes', 'customParameters', 'buttonColor', 'iconUrl'],
    at,
    unsupported,
  );
  const params = o.customParameters;
  return defined<FederatedOptionInput>({
    provider: o.provider,
    name: str(o.providerName),
    label: str(o.fullLabel),
    scopes: strings(o.scopes),
    customParameters:
      typeof params === 'object' && params !== null
        ? Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))
        : undefined,
    buttonColor: str(o.buttonColor),
    iconUrl: str(o.iconUrl),
  });
}

function signInOption(raw: FirebaseUiSignInOption, at: string, unsupported: string[]): SignInOptionInput {
  const o: Bag & { provider: string } = typeof raw === 'string' ? { provider: raw } : raw;
  switch (o.provider) {
    case 'password':
    case 'emailLink':
      return emailOption(
        o.provider === 'emailLink' ? { ...o, signInMethod: 'emailLink' } : o,
        at,
        unsupported,
      );
    case 'phone':
      return phoneOption(o, at, unsupported);
    case 'anonymous':
      leftOver(o, ['provider'], at, unsupported);
      return 'anonymous';
    default:
      return typeof raw === 'string' ? raw : federatedOption(o, at, unsupported);
  }
}

function signInOptions(
  list: readonly FirebaseUiSignInOption[] | undefined,
  at: string,
  unsupported: string[],
): SignInOptionInput[] {
  return (list ?? []).map((o, i) => signInOption(o, `${at}signInOptions[${i}].`, unsupported));
}

/** A tenant's email domains: FirebaseUI matched them with its email option's `hd`. */
function emailDomains(list: readonly FirebaseUiSignInOption[] | undefined): string[] {
  const email = list?.find((o) => typeof o === 'object' && o.provider === 'password');
  const hd = typeof email === 'object' ? email.hd : undefined;
  return typeof hd === 'string' ? [hd] : [];
}

function tenants(config: FirebaseUiConfig, unsupported: string[]): TenantInput[] | undefined {
  if (config.tenants === undefined) return undefined;
  return Object.entries(config.tenants).flatMap(([id, tenant]): TenantInput[] => {
    const at = `tenants.${id}.`;
    if (id === '*') {
      unsupported.push(`${at.slice(0, -1)}: a default for every tenant has no equivalent (list each tenant)`);
      return [];
    }
    leftOver(tenant, ['displayName', 'signInOptions'], at, unsupported);
    const list = tenant.signInOptions;
    const options = list === undefined ? undefined : signInOptions(list, at, unsupported);
    const domains = emailDomains(list);
    return [
      defined<TenantInput>({
        id: id === '_' ? null : id,
        displayName: tenant.displayName ?? id,
        signInOptions: options,
        emailDomains: domains.length > 0 ? domains : undefined,
      }),
    ];
  });
}

/** FirebaseUI's callbacks over Doorway's. */
function callbacks(from: FirebaseUiCallbacks | undefined, unsupported: string[]): WidgetCallbacks {
  if (from === undefined) return {};
  leftOver(from, ['signInSuccessWithAuthResult', 'signInFailure', 'uiShown'], 'callbacks.', unsupported);
  const out: WidgetCallbacks = {};
  if (typeof from.signInSuccessWithAuthResult === 'function') {
    out.signInSuccess = (result: SignInResult, redirectUrl: string | null) =>
      from.signInSuccessWithAuthResult?.(
        {
          user: result.user,
          credential: result.credential ?? null,
          additionalUserInfo: { isNewUser: result.isNewUser, providerId: result.providerId },
        },
        redirectUrl ?? undefined,
      );
  }
  if (typeof from.signInFailure === 'function') {
    out.signInFailure = (error: ErrorInfo & { credential?: AuthCredential }) =>
      from.signInFailure?.({
        code: `firebaseui/${error.code}`,
        message: messageFor(error.code),
        credential: error.credential ?? null,
      });
  }
  if (typeof from.uiShown === 'function') out.uiShown = () => from.uiShown?.();
  return out;
}

/** FirebaseUI's `tosUrl` / `privacyPolicyUrl`: a URL carries over, a function does not. */
function policyUrl(value: unknown, key: string, unsupported: string[]): string | undefined {
  if (typeof value === 'function') {
    unsupported.push(`${key}: a function has no equivalent (give the page's URL)`);
  }
  return str(value);
}

/** `queryParameterFor…` carries over only when it names what Doorway reads anyway. */
function queryParameter(config: FirebaseUiConfig, key: string, doorway: string, unsupported: string[]): void {
  const value = config[key];
  if (value !== undefined && value !== doorway) unsupported.push(`${key}: ${why(key)}`);
}

const TOP_LEVEL = [
  'signInOptions',
  'callbacks',
  'signInSuccessUrl',
  'signInFlow',
  'tosUrl',
  'privacyPolicyUrl',
  'autoUpgradeAnonymousUsers',
  'displayMode',
  'tenants',
  'queryParameterForSignInSuccessUrl',
  'queryParameterForWidgetMode',
  'adminRestrictedOperation',
];

/**
 * Converts a FirebaseUI v6 config object to Doorway's. Sign-in options (provider ids and objects: email
 * with password or link, `requireDisplayName`, `disableSignUp`, `emailLinkSignIn`'s URL; phone with
 * `defaultCountry` and country lists; federated `scopes`, `customParameters`, `providerName`,
 * `fullLabel`, colours and icons; anonymous), the callbacks `signInSuccessWithAuthResult`, `signInFailure`
 * and `uiShown`, `signInSuccessUrl`, `signInFlow` (FirebaseUI's default, `redirect`, is kept), ToS and
 * privacy-policy URLs, anonymous upgrade, and multi-tenant `tenants` / `displayMode` carry over. Everything
 * else is listed in `unsupported`, each with what to do instead. The result still goes through
 * `normalizeConfig` (the widget does that), which checks the values.
 * @example
 * const { config, unsupported } = fromFirebaseUiConfig(uiConfig);
 * if (unsupported.length > 0) console.warn(unsupported.join('\n'));
 * <SignInWidget provider={provider} config={config} />
 */
export function fromFirebaseUiConfig(config: FirebaseUiConfig): FirebaseUiConversion {
  const unsupported: string[] = [];
  leftOver(config, TOP_LEVEL, '', unsupported);
  queryParameter(config, 'queryParameterForSignInSuccessUrl', 'signInSuccessUrl', unsupported);
  queryParameter(config, 'queryParameterForWidgetMode', 'mode', unsupported);
  const options = signInOptions(config.signInOptions, '', unsupported);
  const restricted = config.adminRestrictedOperation as Bag | undefined;
  if (restricted?.status === true) {
    const email = options.findIndex((o) => typeof o === 'object' && o.provider === 'email');
    const disableSignUp = defined<{ adminEmail?: string; helpLink?: string }>({
      adminEmail: str(restricted.adminEmail),
      helpLink: str(restricted.helpLink),
    });
    if (email >= 0) options[email] = { ...(options[email] as EmailOptionInput), disableSignUp };
    unsupported.push(
      'adminRestrictedOperation: applied to the email option only (other providers cannot refuse sign-up)',
    );
  }
  const out = defined<WidgetConfigInput>({
    signInOptions: options,
    callbacks: callbacks(config.callbacks, unsupported),
    signInSuccessUrl: str(config.signInSuccessUrl),
    signInFlow: config.signInFlow === 'popup' ? 'popup' : 'redirect',
    tosUrl: policyUrl(config.tosUrl, 'tosUrl', unsupported),
    privacyPolicyUrl: policyUrl(config.privacyPolicyUrl, 'privacyPolicyUrl', unsupported),
    autoUpgradeAnonymousUsers: config.autoUpgradeAnonymousUsers === true ? true : undefined,
    displayMode: config.displayMode === 'identifierFirst' ? 'identifierFirst' : undefined,
    tenants: tenants(config, unsupported),
  });
  return { config: out, unsupported };
}
