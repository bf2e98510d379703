import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { sessionBackend } from '../services.server.ts';
import { requireAccount } from '../session.server.ts';

export const meta: MetaFunction = () => [{ title: 'Your account – Doorway' }];

export const headers = () => ({ 'cache-control': 'no-store' });

export const loader = async ({ request }: LoaderFunctionArgs) => ({
  account: await requireAccount(request, sessionBackend()),
});

export default function Account() {
  const { account } = useLoaderData<typeof loader>();
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
      <form method="post" action="/logout">
        <button type="submit" className="doorway-button host-button">
          Sign out
        </button>
      </form>
    </>
  );
}
