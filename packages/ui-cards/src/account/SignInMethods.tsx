/**
 * `<SignInMethods>`: the ways the user can sign in (`listMethods`), each with Remove (confirmed in place;
 * never on the last one), and "Link …" for each method the host can link that the account lacks.
 * @module
 */
import { providerName, type SignInMethod } from '@doorway/auth-core';
import { useCallback, useRef, useState } from 'react';
import { Actions, Button, Spinner, Text } from '../parts.tsx';
import { useAttempt } from './attempt.ts';
import { ErrorNote, useOnce } from './parts.tsx';
import { RemovableItem } from './RemovableItem.tsx';
import { type AccountSectionProps, canRun, fieldErrors, Section, type SectionBody } from './Section.tsx';
import { accountText, methodsText } from './text.ts';

/** Props of {@link SignInMethods}. */
export interface SignInMethodsProps extends AccountSectionProps {
  /** Methods the host can link (e.g. `['google.com', 'github.com', 'phone']`): "Link …" shows for each one the account lacks. */
  linkable?: readonly SignInMethod[];
  /**
   * Links `method` to the signed-in account the host's way (a provider's popup, a password, a phone code);
   * resolves once linked. Rejections show as the catalogue says; `requires-recent-login` offers
   * "Sign in again" when `reauthenticate` is given.
   */
  onLink?: (method: SignInMethod) => Promise<unknown>;
  /** Called with the account's methods after each one linked or removed. */
  onChange?: (methods: readonly SignInMethod[]) => void;
}

/** How a method is named: "Email and password", "Email link", "Phone number", else the provider's name. */
export function methodName(method: SignInMethod): string {
  if (method === 'password') return methodsText.password;
  if (method === 'emailLink') return methodsText.emailLink;
  return method === 'phone' ? methodsText.phone : providerName(method);
}

type ListProps = SectionBody & Omit<SignInMethodsProps, keyof AccountSectionProps> & { canUnlink: boolean };

/** The "Link …" buttons. */
function LinkButtons(props: { methods: readonly SignInMethod[]; link: ListProps; onLinked: () => void }) {
  const { link } = props;
  const attempt = useAttempt();
  const missing = (link.linkable ?? []).filter((m) => !props.methods.includes(m));
  const onLink = link.onLink;
  if (!onLink || missing.length === 0) return null;
  const start = (method: SignInMethod) =>
    attempt.run(async () => {
      await onLink(method);
      props.onLinked();
      // Its button is gone: focus goes to the heading.
      link.done(methodsText.linked(methodName(method)));
      return null;
    });
  return (
    <div ref={attempt.scope}>
      <ErrorNote message={fieldErrors(attempt.error, {}).card} attempt={attempt} />
      <Actions>
        {missing.map((method) => (
          <Button
            key={method}
            type="button"
            secondary
            disabled={attempt.pending}
            onClick={() => void start(method)}
          >
            {methodsText.link(methodName(method))}
          </Button>
        ))}
      </Actions>
    </div>
  );
}

function MethodList(props: ListProps) {
  const { ops, announce, done } = props;
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const [methods, setMethods] = useState<readonly SignInMethod[] | null>(null);
  const load = useAttempt();
  const { run } = load;
  const reload = useCallback(
    (notify: boolean) =>
      void run(async () => {
        const list = await ops.listMethods();
        setMethods(list);
        if (notify) onChange.current?.(list);
        return null;
      }),
    [run, ops],
  );
  useOnce(useCallback(() => reload(false), [reload]));
  const removed = (method: SignInMethod) => {
    const next = (methods ?? []).filter((m) => m !== method);
    setMethods(next);
    onChange.current?.(next);
    // Focus went to the next item's Remove; with one method left there is none: the heading then.
    (next.length > 1 ? announce : done)(methodsText.removed(methodName(method)));
  };
  if (methods === null)
    return load.error ? (
      <ErrorNote message={fieldErrors(load.error, {}).card} attempt={load} onRetry={() => reload(false)} />
    ) : (
      <Spinner label={accountText.loading} />
    );
  const removable = props.canUnlink && methods.length > 1;
  return (
    <>
      <ul className="doorway-factors" aria-label={methodsText.yours}>
        {methods.map((method) =>
          removable ? (
            <RemovableItem
              key={method}
              name={methodName(method)}
              remove={() => ops.unlink(method).then(() => undefined)}
              onRemoved={() => removed(method)}
            >
              <p className="doorway-factor-about">
                <span className="doorway-factor-name">{methodName(method)}</span>
              </p>
            </RemovableItem>
          ) : (
            <li key={method} className="doorway-factor">
              <p className="doorway-factor-about">
                <span className="doorway-factor-name">{methodName(method)}</span>
              </p>
            </li>
          ),
        )}
      </ul>
      {props.canUnlink && methods.length === 1 ? <Text>{methodsText.onlyOne}</Text> : null}
      <LinkButtons methods={methods} link={props} onLinked={() => reload(true)} />
    </>
  );
}

/**
 * The account's sign-in methods, with Remove on each while there is more than one (when the provider can
 * unlink), and "Link …" for each of `linkable` the account lacks (run by `onLink`). Renders only when
 * `provider.capabilities.account` lists `listMethods`; the list loads once mounted.
 * @example
 * <SignInMethods
 *   provider={provider}
 *   linkable={['google.com', 'github.com']}
 *   onLink={(method) => provider.signInWithFederated(method, { mode: 'popup', link: true })}
 * />
 */
export function SignInMethods(props: SignInMethodsProps) {
  const { provider, reauthenticate, ...rest } = props;
  return (
    <Section
      provider={provider}
      reauthenticate={reauthenticate}
      needs={['listMethods']}
      title={methodsText.title}
      intro={methodsText.intro}
    >
      {(body) => <MethodList {...body} {...rest} canUnlink={canRun(provider, ['unlink'])} />}
    </Section>
  );
}
