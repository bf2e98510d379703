import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';

export const meta: MetaFunction = () => [{ title: 'Account deleted – Doorway' }];

export const headers = () => ({ 'cache-control': 'no-store' });

/** `/account/deleted`: where the account page's "Delete my account" ends (the session already cleared). */
export default function AccountDeleted() {
  return (
    <>
      <h1>Your account has been deleted</h1>
      <p>It and everything in it are gone, and you are signed out on every device.</p>
      <p>
        <Link to="/login">Sign in with another account</Link>
      </p>
    </>
  );
}
