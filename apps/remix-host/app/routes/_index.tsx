import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';

export const meta: MetaFunction = () => [{ title: 'Doorway' }];

export default function Home() {
  return (
    <>
      <h1>Doorway</h1>
      <p>A sign-in widget on Firebase Auth, with server-side sessions and action pages.</p>
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
