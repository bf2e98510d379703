import { createFakeProvider } from '@doorway/adapter-fake';
import { SignInWidget } from '@doorway/ui-cards';
import '@doorway/ui-cards/styles.css';
import type { ReactElement } from 'react';

/** The widget as an app mounts it for a demo: the fake provider, a chooser of email and Google. */
export function Login(): ReactElement {
  return (
    <SignInWidget
      provider={createFakeProvider()}
      config={{ signInOptions: ['email', 'google.com'], signInSuccessUrl: '/signed-in' }}
    />
  );
}
