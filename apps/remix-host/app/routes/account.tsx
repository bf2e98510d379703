import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import {
  accountSettings,
  SETTINGS_OPERATIONS,
  type SettingsRefusal,
  settingsOffered,
} from '../account-settings.server.ts';
import { AccountSettings } from '../components/AccountSettings.tsx';
import { hostConfig } from '../config.server.ts';
import { usePublicConfig } from '../root.tsx';
import { accountProvider, sessionBackend } from '../services.server.ts';
import { requireAccount } from '../session.server.ts';
import { requestThrottle, throttledRequest } from '../throttle.server.ts';

export const meta: MetaFunction = () => [{ title: 'Your account – Doorway' }];

export const headers = () => ({ 'cache-control': 'no-store' });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const account = await requireAccount(request, sessionBackend());
  const done = new URL(request.url).searchParams.get('done');
  return {
    account,
    offered: await settingsOffered(request, accountProvider()),
    // A form that comes back here when done (deleting goes to `/account/deleted`).
    done: done !== null && done !== 'delete' && Object.hasOwn(SETTINGS_OPERATIONS, done) ? done : null,
  };
};

/**
 * `POST /account`: one of the page's own forms (display name, password, other devices, deletion), run on
 * the server so that it works without scripts. Throttled per client as every costly request; a refusal
 * re-renders the page with its message (422).
 */
export const action = async ({ request, context }: ActionFunctionArgs) => {
  let refused: SettingsRefusal | null = null;
  const response = await throttledRequest(requestThrottle(context), { costly: true }, async () => {
    const answer = await accountSettings(request, hostConfig().allowedOrigins, accountProvider());
    if (answer instanceof Response) return answer;
    refused = answer;
    return new Response(null, { status: 422 });
  });
  if (refused === null) return response;
  return data(refused as SettingsRefusal, { status: 422, headers: { 'cache-control': 'no-store' } });
};

// The browser's SDK and the card, loaded after hydration: never in the server render or the first paint.
const AccountSecondFactors = lazy(() => import('../components/AccountSecondFactors.tsx'));
const AccountPasskeys = lazy(() => import('../components/AccountPasskeys.tsx'));

/**
 * "Second factors": the heading and a note for browsers without scripts on the server, the card once the
 * page has hydrated.
 */
function SecondFactorsSection(props: { uid: string }) {
  const config = usePublicConfig();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <section className="host-second-factors" aria-labelledby="second-factors-heading">
      <h2 id="second-factors-heading">Second factors</h2>
      {hydrated ? (
        <Suspense fallback={<p className="host-notice">Loading…</p>}>
          <AccountSecondFactors config={config} uid={props.uid} />
        </Suspense>
      ) : (
        <noscript>
          <p className="host-notice">Adding or removing a second factor needs JavaScript.</p>
        </noscript>
      )}
    </section>
  );
}

/**
 * "Passkeys": as "Second factors", the heading and a note without scripts on the server, the card (and,
 * once after a password sign-in, the offer to add a passkey) once the page has hydrated.
 */
function PasskeysSection(props: { uid: string; signInProvider: string }) {
  const config = usePublicConfig();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <section className="host-passkeys" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      {hydrated ? (
        <Suspense fallback={<p className="host-notice">Loading…</p>}>
          <AccountPasskeys config={config} uid={props.uid} signInProvider={props.signInProvider} />
        </Suspense>
      ) : (
        <noscript>
          <p className="host-notice">Adding or removing a passkey needs JavaScript.</p>
        </noscript>
      )}
    </section>
  );
}

export default function Account() {
  const { account, offered, done } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>() as
    | Parameters<typeof AccountSettings>[0]['refusal']
    | undefined;
  const rows: [string, string][] = [
    ['Email', account.email ?? '—'],
    ['Email verified', account.emailVerified ? 'Yes' : 'No'],
    ['Phone', account.phoneNumber ?? '—'],
    ['Name', account.displayName ?? '—'],
    ['User ID', account.uid],
    ['Signed in with', account.signInProvider],
    [
      'Linked sign-in methods',
      account.providers.length > 0 ? [...account.providers].sort().join(', ') : 'none (guest)',
    ],
  ];
  return (
    <>
      <h1>Your account</h1>
      <dl className="host-account" aria-label="Account">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <AccountSettings
        offered={offered}
        displayName={account.displayName}
        hasPassword={account.providers.includes('password')}
        done={done}
        refusal={refusal ?? null}
      />
      <SecondFactorsSection uid={account.uid} />
      <PasskeysSection uid={account.uid} signInProvider={account.signInProvider} />
      <form method="post" action="/logout">
        <button type="submit" className="doorway-button host-button">
          Sign out
        </button>
      </form>
    </>
  );
}
