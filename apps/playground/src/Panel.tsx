import type { FakeFaults } from '@doorway/adapter-fake';
import type { AuthCredential } from '@doorway/auth-core';
import { useState } from 'react';
import { fakeAuthenticatorCodes } from './AuthenticatorCodes.tsx';
import { fakePasskeys, PasskeysSection } from './Passkeys.tsx';
import {
  BackendSwitch,
  Check,
  ConfigSection,
  OutboxSection,
  type PanelBackend,
  SessionSection,
  useActions,
  WorldSection,
} from './panelParts.tsx';
import type { World } from './world.ts';

const TWO_HOURS = 2 * 60 * 60 * 1000;

/** The playground page of a world on the fake backend. */
function pageUrl(world: World): string {
  const url = new URL('/', location.href);
  if (world.id !== 'default') url.searchParams.set('world', world.id);
  return url.href;
}

/** The fake backend as the panel shows it: its outbox, every widget switch, its world. */
function fakeBackend(world: World): PanelBackend {
  const { outbox } = world.fake.backend;
  return {
    name: 'fake',
    worldId: world.id,
    provider: world.provider,
    emails: () =>
      [...outbox.emails].reverse().map((m) => ({ key: m.oobCode, kind: m.kind, to: m.to, link: m.link })),
    sms: () => [...outbox.sms].reverse().map((m) => ({ key: m.verificationId, to: m.to, code: m.code })),
    authenticators: () => fakeAuthenticatorCodes(world.fake.backend),
    passkeys: () => fakePasskeys(world.fake.backend),
    switches: [
      'displayMode',
      'signInFlow',
      'emailMethod',
      'theme',
      'requireName',
      'tenants',
      'autoUpgrade',
      'restrictSignUp',
      'forceSameDevice',
      'noStorage',
    ],
    config: () => world.config(),
    setConfig: (config) => world.admin({ op: 'config', config }),
    pageUrl: () => pageUrl(world),
    flushed: () => world.flushed(),
    becomeAnotherDevice: () => world.becomeAnotherDevice(),
    reset: () => world.reset(),
  };
}

/** The fake's faults: failures and conditions a real backend has, switched on at will. */
function FaultsSection({ world }: { world: World }) {
  const backend = world.fake.backend;
  const faults = backend.faults.get();
  const setFaults = (patch: Partial<FakeFaults>) => world.admin({ op: 'faults', patch });
  const check = (label: string, checked: boolean, patch: (on: boolean) => Partial<FakeFaults>) => (
    <Check label={label} checked={checked} onChange={(on) => setFaults(patch(on))} />
  );
  return (
    <section aria-labelledby="pg-faults">
      <h2 id="pg-faults">Faults</h2>
      {check('Network failure', faults.network !== false, (network) => ({ network }))}
      {check('Rate limit', faults.rateLimit !== false, (rateLimit) => ({ rateLimit }))}
      {check('Sign-up disabled', faults.signUpDisabled, (signUpDisabled) => ({ signUpDisabled }))}
      {check('Email enumeration protection', faults.enumerationProtection, (enumerationProtection) => ({
        enumerationProtection,
      }))}
      <Check
        label="Expired codes (clock +2 h)"
        checked={world.skew() !== 0}
        onChange={(v) => world.admin({ op: 'skew', ms: v ? TWO_HOURS : 0 })}
      />
      {check('Slow network (1.5 s)', faults.latencyMs > 0, (on) => ({ latencyMs: on ? 1500 : 0 }))}
      <Check
        label="Captcha must be solved"
        checked={!backend.captcha.autoSolve}
        onChange={(v) => world.admin({ op: 'captcha', autoSolve: !v })}
      />
    </section>
  );
}

/** The account admin's buttons: each sends what an admin SDK would (an emailed action link). */
const ADMIN_ACTIONS: readonly (readonly [
  button: string,
  label: string,
  action: (world: World, uid: string, newEmail: string) => void,
])[] = [
  [
    'Send verification email',
    'Verification email',
    (world, uid) => world.admin({ op: 'sendVerificationEmail', uid, url: pageUrl(world) }),
  ],
  [
    'Send password reset',
    'Password reset',
    (world, uid) => world.admin({ op: 'sendPasswordReset', uid, url: pageUrl(world) }),
  ],
  [
    'Change email (sends recover link)',
    'Change email',
    (world, uid, email) => world.admin({ op: 'changeEmail', uid, email, url: pageUrl(world) }),
  ],
  [
    'Verify and change email',
    'Verify and change email',
    (world, uid, email) => world.admin({ op: 'verifyAndChangeEmail', uid, email, url: pageUrl(world) }),
  ],
  [
    'Add second factor',
    'Second factor',
    (world, uid) => world.admin({ op: 'addSecondFactor', uid, phone: '+12015550199', url: pageUrl(world) }),
  ],
];

/** Account admin: the emails an app's server sends about an account, for the account named here. */
function AdminSection(props: { world: World; status: string; setStatus: (status: string) => void }) {
  const { world, setStatus } = props;
  const [email, setEmail] = useState('ada@example.com');
  const [newEmail, setNewEmail] = useState('ada.new@example.com');
  const run = (label: string, action: (typeof ADMIN_ACTIONS)[number][2]) => {
    const backend = world.fake.backend;
    const account = backend.findUserByEmail(email) ?? backend.findUserByEmail(email, null);
    if (!account) {
      setStatus(`No account with the email ${email}`);
      return;
    }
    try {
      action(world, account.uid, newEmail);
      setStatus(`${label}: sent`);
    } catch (e) {
      setStatus(`${label}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <section aria-labelledby="pg-admin">
      <h2 id="pg-admin">Account admin</h2>
      <label className="playground-field">
        Account email
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label className="playground-field">
        New email
        <input type="email" value={newEmail} onChange={(e) => setNewEmail(e.target.value)} />
      </label>
      <div className="playground-row">
        {ADMIN_ACTIONS.map(([button, label, action]) => (
          <button key={button} type="button" onClick={() => run(label, action)}>
            {button}
          </button>
        ))}
      </div>
      <p role="status">{props.status}</p>
    </section>
  );
}

/** The side panel: session, outbox, passkeys, faults, widget config, account admin and the world. */
export function Panel(props: { world: World; conflict: AuthCredential | null; onRemount: () => void }) {
  const { world, conflict } = props;
  const backend = fakeBackend(world);
  const { status, setStatus, act } = useActions(props.onRemount, false);
  return (
    <aside className="playground-panel" aria-label="Playground controls">
      <BackendSwitch current="fake" world={world.id} />
      <SessionSection provider={world.provider} act={act}>
        {conflict ? (
          <div className="playground-note" role="status">
            <p>
              Merge conflict: the account already exists. The app decides what happens to the guest's data.
            </p>
            <button type="button" onClick={() => act(() => world.provider.signInWithCredential(conflict))}>
              Sign in to the existing account
            </button>
          </div>
        ) : null}
      </SessionSection>
      <OutboxSection backend={backend} />
      {backend.passkeys ? <PasskeysSection read={backend.passkeys} /> : null}
      <FaultsSection world={world} />
      <ConfigSection backend={backend} />
      <AdminSection world={world} status={status} setStatus={setStatus} />
      <WorldSection backend={backend}>
        World <code>{world.id}</code>: seeded accounts ada@example.com / secret123 (password),
        grace@example.com (Google), linus@example.com (email link), margaret@example.com (Microsoft, not
        offered), ken@acme.com / secret123 (Acme tenant); with second factors, all / secret123:
        sms@example.com (text message), totp@example.com (authenticator app, its code in the outbox),
        both@example.com (both). Phone: United Kingdom (+44) numbers are blocked by the widget config.
      </WorldSection>
    </aside>
  );
}
