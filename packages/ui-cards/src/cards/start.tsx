import type { SignInOption } from '@doorway/auth-core';
import {
  messageFor,
  optionsFor,
  phoneOptionOf,
  firstCardText as uiText,
} from '@doorway/auth-core/first-card';
import {
  type CSSProperties,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useId,
  useState,
  useSyncExternalStore,
} from 'react';
import { type CardProps, useWidget } from '../context.ts';
import { loadCards } from '../loadCards.ts';
import {
  Actions,
  Button,
  Card,
  CardError,
  errorsFor,
  Field,
  Form,
  fieldValue,
  Legal,
  NeedsScripts,
  Spinner,
  Text,
} from '../parts.tsx';
import type { PhoneFormProps } from './PhoneNumberForm.tsx';

/** A button of a chooser: the value it posts, its label, and for a sign-in option its look. */
interface Choice {
  value: string;
  label: string;
  /** A sign-in option's id (`email`, `phone`, `anonymous`, `google.com`): its mark and colours in styles.css. */
  provider?: string;
  /** A configured provider's own icon and colours (custom properties the stylesheet reads). */
  style?: CSSProperties;
}

/** An option's button: its `providerId`, label, and a configured provider's own icon and colours. */
function optionChoice(option: SignInOption): Choice {
  const provider = option.provider === 'federated' ? option.providerId : option.provider;
  switch (option.provider) {
    case 'email':
      return { value: provider, provider, label: uiText.signInWithEmail };
    case 'phone':
      return { value: provider, provider, label: uiText.signInWithPhone };
    case 'anonymous':
      return { value: provider, provider, label: uiText.continueAsGuest };
    case 'passkey':
      return { value: provider, provider, label: uiText.signInWithPasskey };
    case 'federated': {
      const { iconUrl, buttonColor, textColor } = option;
      const style = {
        // A configured icon is shown as it is: no provider's mark masks it.
        '--doorway-icon': iconUrl && `url("${iconUrl}")`,
        '--doorway-mark': iconUrl && 'none',
        '--doorway-provider-bg': buttonColor,
        '--doorway-provider-fg': textColor,
      };
      return {
        value: provider,
        provider,
        label: option.label ?? uiText.signInWith(option.name),
        style: (iconUrl || buttonColor || textColor ? style : undefined) as CSSProperties | undefined,
      };
    }
  }
}

/**
 * One submit button per choice, named `name` with the choice as its value, in a form sending `event`
 * (the form encoding of `CHOOSE_PROVIDER` and `CHOOSE_TENANT`), then `children` (a Back button). The
 * choice `marked` carries the "Last used" mark, as its description (its name stays its label).
 */
function Choices(props: {
  event: 'CHOOSE_PROVIDER' | 'CHOOSE_TENANT';
  name: 'providerId' | 'tenantId';
  choices: readonly Choice[];
  kind: string;
  pending: boolean;
  send: CardProps<'providerChooser'>['send'];
  marked?: string | null;
  children?: ReactNode;
}) {
  const { event, name } = props;
  const markId = useId();
  return (
    <Form
      event={event}
      send={props.send}
      pending={props.pending}
      submit={(_, button) => {
        const value = button?.value ?? '';
        // The default tenant is posted as ''.
        return event === 'CHOOSE_TENANT'
          ? { type: event, tenantId: value || null }
          : { type: event, providerId: value };
      }}
    >
      <ul className="doorway-options">
        {props.choices.map(({ value, label, provider, style }) => {
          const marked = value === props.marked;
          return (
            <li key={value}>
              <button
                type="submit"
                className={props.kind}
                name={name}
                value={value}
                disabled={props.pending}
                data-provider={provider}
                style={style}
                aria-describedby={marked ? markId : undefined}
              >
                {label}
              </button>
              {marked ? (
                <span id={markId} className="doorway-badge">
                  {uiText.lastUsed}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {props.children}
    </Form>
  );
}

const noStore = { get: () => null, subscribe: () => () => undefined };

/**
 * Whether this browser has WebAuthn: never on the server or while hydrating (a passkey needs scripts, so its
 * button appears only once they run).
 */
const useWebAuthn = () =>
  useSyncExternalStore(
    noStore.subscribe,
    () => typeof PublicKeyCredential === 'function',
    () => false,
  );

/** The option marked "Last used" (none outside a widget that keeps one). */
function useLastUsed(): string | null {
  const store = useWidget().lastUsed ?? noStore;
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** One button per sign-in option, the one last used marked. */
function OptionButtons(props: {
  options: readonly SignInOption[];
  pending: boolean;
  send: CardProps<'providerChooser'>['send'];
  children?: ReactNode;
}) {
  const webAuthn = useWebAuthn();
  return (
    <Choices
      event="CHOOSE_PROVIDER"
      name="providerId"
      choices={props.options.filter((o) => o.provider !== 'passkey' || webAuthn).map(optionChoice)}
      kind="doorway-button doorway-provider"
      pending={props.pending}
      send={props.send}
      marked={useLastUsed()}
    >
      {props.children}
    </Choices>
  );
}

/** Provider chooser: one button per sign-in option, or per tenant when a tenant must be chosen first. */
export function ProviderChooser({ state, send }: CardProps<'providerChooser'>) {
  const { config } = useWidget();
  const pending = state.pending !== null;
  const error = state.error ? messageFor(state.error) : undefined;
  if (state.chooseTenant && config.tenants) {
    return (
      <Card title={uiText.tenantChooserTitle}>
        <CardError message={error} />
        <Choices
          event="CHOOSE_TENANT"
          name="tenantId"
          choices={config.tenants.map((t) => ({ value: t.id ?? '', label: t.displayName }))}
          kind="doorway-button doorway-secondary"
          pending={pending}
          send={send}
        />
        <Legal />
      </Card>
    );
  }
  const options = optionsFor(config, config.tenants ? state.tenantId : undefined);
  const canGoBack =
    config.tenants !== null && config.tenants.length > 1 && config.displayMode === 'optionFirst';
  return (
    <Card title={uiText.providerChooserTitle}>
      <CardError message={error} />
      <OptionButtons options={options} pending={pending} send={send}>
        {canGoBack ? (
          <Actions>
            <Button secondary event="CANCEL" disabled={pending}>
              {uiText.back}
            </Button>
          </Actions>
        ) : null}
      </OptionButtons>
      <Legal />
    </Card>
  );
}

/**
 * Passkey autofill while the email card shows, where passkeys are offered: the field's suggestions include
 * the person's passkeys (see `../autofill.ts`). Whether it runs.
 */
function usePasskeyAutofill(options: readonly SignInOption[], send: CardProps<'emailEntry'>['send']) {
  const { getProvider } = useWidget();
  const wanted = useWebAuthn() && options.some((o) => o.provider === 'passkey');
  const [provider, setProvider] = useState(getProvider);
  useEffect(() => {
    if (!wanted || provider) return;
    // A lazy provider still loading (a card the server rendered hydrates first): autofill once it is there.
    const poll = setInterval(() => setProvider(getProvider()), 100);
    return () => clearInterval(poll);
  }, [wanted, provider, getProvider]);
  const on = wanted && !!provider?.passkeys;
  useEffect(() => {
    if (!on || !provider) return;
    const stop = new AbortController();
    void import('../autofill.ts').then((m) => m.autofill(provider, send, stop.signal));
    return () => stop.abort();
  }, [on, provider, send]);
  return on;
}

/** Email entry: the first step of every email flow. */
export function EmailEntry({ state, send }: CardProps<'emailEntry'>) {
  const { config } = useWidget();
  const errors = errorsFor(state.error, ['email']);
  const pending = state.pending !== null;
  const options = optionsFor(config, config.tenants ? state.tenantId : undefined);
  const autofill = usePasskeyAutofill(options, send);
  const canCancel = config.displayMode === 'optionFirst' && options.length > 1;
  // Identifier-first starts here, so the other options are offered beside the email form.
  const others =
    config.displayMode === 'identifierFirst' ? options.filter((o) => o.provider !== 'email') : [];
  return (
    <Card title={uiText.emailEntryTitle}>
      <Form
        event="SUBMIT_EMAIL"
        send={send}
        pending={pending}
        submit={(form) => ({ type: 'SUBMIT_EMAIL', email: fieldValue(form, 'email') })}
      >
        <CardError message={errors.card} />
        <Field
          label={uiText.emailLabel}
          type="email"
          name="email"
          autoComplete={autofill ? 'username webauthn' : 'email'}
          spellCheck={false}
          defaultValue={state.email}
          error={errors.email}
        />
        <Actions>
          <Button disabled={pending}>{uiText.next}</Button>
          {canCancel ? (
            <Button secondary event="CANCEL" disabled={pending}>
              {uiText.cancel}
            </Button>
          ) : null}
        </Actions>
      </Form>
      {others.length > 0 ? (
        <section className="doorway-others" aria-labelledby="doorway-others-title">
          <h2 id="doorway-others-title" className="doorway-subtitle">
            {uiText.otherWaysToSignIn}
          </h2>
          <OptionButtons options={others} pending={pending} send={send} />
        </section>
      ) : null}
      <Legal />
    </Card>
  );
}

/** An unrecoverable error (e.g. no web storage, provider failed to load). */
export function UnrecoverableError({ state }: CardProps<'unrecoverableError'>) {
  return (
    <Card title={uiText.unrecoverableErrorTitle}>
      <Text>{messageFor(state.message)}</Text>
    </Card>
  );
}

/** The spinner card (loading, action codes being checked, redirects). */
export function SpinnerCard(_: CardProps<'spinner'>) {
  return (
    <Card title={uiText.spinnerLabel} hideTitle>
      <Spinner label={uiText.spinnerLabel} />
    </Card>
  );
}

// The phone form comes with the cards chunk and needs the phone chunk (libphonenumber-js's metadata and our
// reader of it): both load in parallel when the card shows. The heading is here, so that a phone-only widget
// renders it (also on the server) meanwhile. A chunk that fails to load is said on the card, not thrown into
// the app's React tree.
const LazyPhoneNumberForm = lazy(() =>
  Promise.all([loadCards(), import('../phoneNumbers.ts')]).then(
    ([{ PhoneNumberForm }, numbers]) => ({
      default: (props: PhoneFormProps) => <PhoneNumberForm {...props} numbers={numbers} />,
    }),
    () => ({ default: () => <CardError message={messageFor('network-request-failed')} /> }),
  ),
);

/** Phone number entry: country selector, number, captcha. The number is sent in E.164. */
export function PhoneEntry(props: CardProps<'phoneEntry'>) {
  const { config } = useWidget();
  const option = phoneOptionOf(optionsFor(config, config.tenants ? props.state.tenantId : undefined));
  return (
    <Card title={uiText.phoneEntryTitle}>
      <NeedsScripts />
      <Suspense fallback={<Spinner label={uiText.spinnerLabel} />}>
        <LazyPhoneNumberForm
          {...props}
          allowedCountries={option?.allowedCountries ?? null}
          blockedCountries={option?.blockedCountries ?? []}
        />
      </Suspense>
    </Card>
  );
}
