/**
 * The account page's own forms, server-rendered plain `<form method="post">`s that work with scripts off:
 * display name, password, other devices, deleting the account (`account-settings.server.ts` runs them).
 * Each section shows only where the session's provider lists its operations, says what a form just did in
 * a status line, and shows a refusal under the form with what was typed kept.
 */
import type { AccountOperation } from '@doorway/auth-core';
import type { ReactNode } from 'react';

type Intent = 'profile' | 'password' | 'signOutOthers' | 'delete';

/** What the route gives the forms. */
export interface AccountSettingsProps {
  offered: readonly AccountOperation[];
  displayName: string | null;
  hasPassword: boolean;
  /** The form that just succeeded (`?done=`), if any. */
  done: string | null;
  refusal: { intent: Intent; error: string; values: Record<string, string> } | null;
}

const DONE: Record<Intent, string> = {
  profile: 'Display name saved.',
  password: 'Password changed.',
  signOutOthers: 'You are signed out of all other devices.',
  delete: 'Your account has been deleted.',
};

/** One section: its heading, its status line and the refusal of its form. */
function Section(props: {
  intent: Intent;
  title: string;
  intro?: string;
  done: string | null;
  refusal: AccountSettingsProps['refusal'];
  children: ReactNode;
}) {
  const { intent, done, refusal } = props;
  const error = refusal?.intent === intent ? refusal.error : null;
  return (
    <section className="host-settings" aria-labelledby={`${intent}-heading`}>
      <h2 id={`${intent}-heading`}>{props.title}</h2>
      {props.intro ? <p>{props.intro}</p> : null}
      <p role="status" className="host-notice">
        {done === intent ? DONE[intent] : ''}
      </p>
      <form method="post" aria-describedby={error ? `${intent}-error` : undefined}>
        <input type="hidden" name="intent" value={intent} />
        {props.children}
        {error ? (
          <p id={`${intent}-error`} role="alert" className="host-error">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}

const Field = (props: {
  id: string;
  name: string;
  label: string;
  type?: string;
  value?: string;
  auto?: string;
}) => (
  <p className="host-field">
    <label htmlFor={props.id}>{props.label}</label>
    <input
      id={props.id}
      name={props.name}
      type={props.type ?? 'text'}
      defaultValue={props.value}
      autoComplete={props.auto}
    />
  </p>
);

const Submit = (props: { children: string }) => (
  <button type="submit" className="doorway-button host-button">
    {props.children}
  </button>
);

/** The forms the session's provider can run, in the page's order. */
export function AccountSettings(props: AccountSettingsProps) {
  const { offered, refusal, done } = props;
  const has = (op: AccountOperation) => offered.includes(op);
  const values = (intent: Intent) => (refusal?.intent === intent ? refusal.values : {});
  const common = { done, refusal };
  return (
    <>
      {has('updateProfile') ? (
        <Section intent="profile" title="Profile" {...common}>
          <Field
            id="settings-display-name"
            name="displayName"
            label="Display name"
            value={values('profile').displayName ?? props.displayName ?? ''}
            auto="name"
          />
          <Submit>Save</Submit>
        </Section>
      ) : null}
      {has('changePassword') ? (
        <Section
          intent="password"
          title="Password"
          intro={
            props.hasPassword ? undefined : 'Your account has no password yet. Set one to sign in with it.'
          }
          {...common}
        >
          {props.hasPassword ? (
            <Field
              id="settings-current-password"
              name="currentPassword"
              label="Current password"
              type="password"
              auto="current-password"
            />
          ) : null}
          <Field
            id="settings-new-password"
            name="newPassword"
            label="New password"
            type="password"
            auto="new-password"
          />
          <Submit>{props.hasPassword ? 'Change password' : 'Set password'}</Submit>
        </Section>
      ) : null}
      {has('signOutOtherSessions') ? (
        <Section
          intent="signOutOthers"
          title="Devices"
          intro="Signed in somewhere you no longer use? Sign out there. You stay signed in on this device."
          {...common}
        >
          <Submit>Sign out of all other devices</Submit>
        </Section>
      ) : null}
      {has('deleteAccount') ? (
        <Section
          intent="delete"
          title="Delete account"
          intro="Deleting your account removes it and everything in it. This cannot be undone."
          {...common}
        >
          <Field
            id="settings-delete-confirm"
            name="confirm"
            label="To confirm, type delete"
            value={values('delete').confirm}
          />
          <Submit>Delete my account</Submit>
        </Section>
      ) : null}
    </>
  );
}
