import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { usePublicConfig } from '../root.tsx';

export const meta: MetaFunction = () => [{ title: 'Doorway' }];

const PROVIDER_NAMES = { firebase: 'Firebase Auth', supabase: 'Supabase Auth' } as const;

export default function Home() {
  const { provider } = usePublicConfig();
  return (
    <>
      <h1>Doorway</h1>
      <p>A sign-in widget on {PROVIDER_NAMES[provider]}, with server-side sessions and action pages.</p>
      <ul>
        <li>
          <Link to="/login">Sign in</Link>
        </li>
        <li>
          <Link to="/account">Your account</Link>
        </li>
      </ul>
    </>
  );
}
