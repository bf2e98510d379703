/**
 * The passkeys the backend keeps: the side panel lists every passkey of the backend's accounts (of the
 * current tenant) with when it was added and last used, its signature counter and whether it is synced,
 * refreshed every second (a passkey's ceremony is not a logged call, so the world does not announce it).
 * @module
 */
import type { FakeBackend } from '@doorway/adapter-fake';
import { useEffect, useReducer } from 'react';

/** One stored passkey, as the panel shows it: no key material, only the start of its credential id. */
export interface PanelPasskey {
  key: string;
  /** The account's email. */
  account: string;
  name: string | null;
  /** The first characters of the credential id (base64url). */
  idPrefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  counter: number;
  /** Backed up by its authenticator (a synced passkey). */
  synced: boolean;
}

const ID_PREFIX_LENGTH = 8;

/** The passkeys of the fake's accounts (of the current tenant), account by account, oldest first. */
export function fakePasskeys(backend: FakeBackend): PanelPasskey[] {
  return backend.listUsers().flatMap((user) => {
    const email = user.email;
    if (email === null) return [];
    return backend.passkeys(email).map((p) => ({
      key: p.id,
      account: email,
      name: p.name,
      idPrefix: p.id.slice(0, ID_PREFIX_LENGTH),
      createdAt: p.createdAt,
      lastUsedAt: p.lastUsedAt,
      counter: p.counter,
      synced: p.backedUp,
    }));
  });
}

function When({ at }: { at: number }) {
  const date = new Date(at);
  return <time dateTime={date.toISOString()}>{date.toLocaleString()}</time>;
}

/** One passkey: account, name, when added and last used, counter, synced, the start of its id. */
function PasskeyItem({ passkey: p }: { passkey: PanelPasskey }) {
  return (
    <li>
      {p.account}, {p.name ?? 'Unnamed passkey'}: added <When at={p.createdAt} />, last used{' '}
      {p.lastUsedAt === null ? 'never' : <When at={p.lastUsedAt} />}, counter {p.counter},{' '}
      {p.synced ? 'synced' : 'not synced'} (id <code>{p.idPrefix}…</code>)
    </li>
  );
}

/** The panel's passkeys section, newest state every second. */
export function PasskeysSection({ read }: { read: () => readonly PanelPasskey[] }) {
  const [, tick] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, []);
  const passkeys = read();
  return (
    <section aria-labelledby="pg-passkeys">
      <h2 id="pg-passkeys">Passkeys</h2>
      {passkeys.length === 0 ? (
        <p>No passkeys yet.</p>
      ) : (
        <ul className="playground-outbox" aria-label="Stored passkeys">
          {passkeys.map((p) => (
            <PasskeyItem key={p.key} passkey={p} />
          ))}
        </ul>
      )}
    </section>
  );
}
