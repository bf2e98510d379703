import type { FakeFaults } from '@doorway/adapter-fake';
import type { AuthCredential } from '@doorway/auth-core';
import { useState } from 'react';
import { DEFAULT_CONFIG, type PlaygroundConfig, type World } from './world.ts';

const TWO_HOURS = 2 * 60 * 60 * 1000;

/**
 * Switches the playground between the fake backend and the adapter-supabase on the GoTrue double
 * (`?provider=supabase`), keeping the world id.
 */
export function BackendSwitch({ current, world }: { current: 'fake' | 'supabase'; world: string }) {
  return (
    <Choice
      legend="Backend"
      value={current}
      options={[
        ['fake', 'Fake (adapter-fake)'],
        ['supabase', 'Supabase (local GoTrue double)'],
      ]}
      onChange={(next) => {
        const url = new URL('/', location.href);
        if (next === 'supabase') url.searchParams.set('provider', 'supabase');
        if (world !== 'default') url.searchParams.set('world', world);
        location.assign(url.href);
      }}
    />
  );
}

interface PanelProps {
  world: World;
  conflict: AuthCredential | null;
  onRemount: () => void;
}

/** A checkbox with its label. */
export function Check(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="playground-check">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />{' '}
      {props.label}
    </label>
  );
}

/** Radio buttons in a fieldset. */
export function Choice<T extends string>(props: {
  legend: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="playground-choice">
      <legend>{props.legend}</legend>
      {props.options.map(([value, label]) => (
        <label key={value} className="playground-check">
          <input
            type="radio"
            name={props.legend}
            value={value}
            checked={props.value === value}
            onChange={() => props.onChange(value)}
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** The side panel: session, outbox, faults, widget config, account admin and the world. */
export function Panel({ world, conflict, onRemount }: PanelProps) {
  const { fake, provider } = world;
  const backend = fake.backend;
  const user = provider.getCurrentUser();
  const faults = backend.faults.get();
  const config = world.config();
  const [email, setEmail] = useState('ada@example.com');
  const [newEmail, setNewEmail] = useState('ada.new@example.com');
  const [status, setStatus] = useState('');

  const setFaults = (patch: Partial<FakeFaults>) => world.admin({ op: 'faults', patch });
  const setConfig = (patch: Partial<PlaygroundConfig>) =>
    world.admin({ op: 'config', config: { ...config, ...patch } });
  const pageUrl = () => {
    const url = new URL('/', location.href);
    if (world.id !== 'default') url.searchParams.set('world', world.id);
    return url.href;
  };
  const withAccount = (label: string, run: (uid: string) => void) => {
    const account = backend.findUserByEmail(email) ?? backend.findUserByEmail(email, null);
    if (!account) {
      setStatus(`No account with the email ${email}`);
      return;
    }
    try {
      run(account.uid);
      setStatus(`${label}: sent`);
    } catch (e) {
      setStatus(`${label}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (e) {
      setStatus(e instanceof Error ? e.message : String(e));
    }
    onRemount();
  };

  const emails = [...backend.outbox.emails].reverse();
  const sms = [...backend.outbox.sms].reverse();

  return (
    <aside className="playground-panel" aria-label="Playground controls">
      <BackendSwitch current="fake" world={world.id} />
      <section aria-labelledby="pg-session">
        <h2 id="pg-session">Session</h2>
        <p>
          {user
            ? `Signed in: ${user.isAnonymous ? 'anonymous user' : (user.email ?? user.phoneNumber ?? user.uid)} (${user.uid})`
            : 'Nobody is signed in.'}
        </p>
        <div className="playground-row">
          <button type="button" onClick={() => act(() => provider.signInAnonymously())}>
            Sign in anonymously first
          </button>
          <button type="button" onClick={() => act(() => provider.signOut())}>
            Sign out (app)
          </button>
        </div>
        {conflict ? (
          <div className="playground-note" role="status">
            <p>
              Merge conflict: the account already exists. The app decides what happens to the guest's data.
            </p>
            <button type="button" onClick={() => act(() => provider.signInWithCredential(conflict))}>
              Sign in to the existing account
            </button>
          </div>
        ) : null}
      </section>

      <section aria-labelledby="pg-outbox">
        <h2 id="pg-outbox">Outbox</h2>
        {emails.length === 0 && sms.length === 0 ? <p>Nothing sent yet.</p> : null}
        <ul className="playground-outbox" aria-label="Emails">
          {emails.map((m) => (
            <li key={m.oobCode}>
              <span>
                {m.kind} email to {m.to}
              </span>
              <span className="playground-row">
                <a
                  href={m.link}
                  aria-label={`Open ${m.kind} link for ${m.to}`}
                  onClick={(e) => {
                    e.preventDefault();
                    void world.flushed().then(() => location.assign(m.link));
                  }}
                >
                  Open link
                </a>
                <button
                  type="button"
                  aria-label={`Open ${m.kind} link for ${m.to} as another device`}
                  onClick={() => {
                    world.becomeAnotherDevice();
                    void world.flushed().then(() => location.assign(m.link));
                  }}
                >
                  Open as another device
                </button>
              </span>
            </li>
          ))}
        </ul>
        <ul className="playground-outbox" aria-label="Text messages">
          {sms.map((m) => (
            <li key={m.verificationId}>
              SMS to {m.to}: code <code data-testid="sms-code">{m.code}</code>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="pg-faults">
        <h2 id="pg-faults">Faults</h2>
        <Check
          label="Network failure"
          checked={faults.network !== false}
          onChange={(v) => setFaults({ network: v })}
        />
        <Check
          label="Rate limit"
          checked={faults.rateLimit !== false}
          onChange={(v) => setFaults({ rateLimit: v })}
        />
        <Check
          label="Sign-up disabled"
          checked={faults.signUpDisabled}
          onChange={(v) => setFaults({ signUpDisabled: v })}
        />
        <Check
          label="Email enumeration protection"
          checked={faults.enumerationProtection}
          onChange={(v) => setFaults({ enumerationProtection: v })}
        />
        <Check
          label="Expired codes (clock +2 h)"
          checked={world.skew() !== 0}
          onChange={(v) => world.admin({ op: 'skew', ms: v ? TWO_HOURS : 0 })}
        />
        <Check
          label="Slow network (1.5 s)"
          checked={faults.latencyMs > 0}
          onChange={(v) => setFaults({ latencyMs: v ? 1500 : 0 })}
        />
        <Check
          label="Captcha must be solved"
          checked={!backend.captcha.autoSolve}
          onChange={(v) => world.admin({ op: 'captcha', autoSolve: !v })}
        />
      </section>

      <section aria-labelledby="pg-config">
        <h2 id="pg-config">Widget config</h2>
        <Choice
          legend="Display mode"
          value={config.displayMode}
          options={[
            ['optionFirst', 'Option first'],
            ['identifierFirst', 'Identifier first'],
          ]}
          onChange={(displayMode) => setConfig({ displayMode })}
        />
        <Choice
          legend="Federated sign-in"
          value={config.signInFlow}
          options={[
            ['popup', 'Popup'],
            ['redirect', 'Redirect'],
          ]}
          onChange={(signInFlow) => setConfig({ signInFlow })}
        />
        <Choice
          legend="Email option"
          value={config.emailMethod}
          options={[
            ['password', 'Password'],
            ['emailLink', 'Email link'],
          ]}
          onChange={(emailMethod) => setConfig({ emailMethod })}
        />
        <Check
          label="Require name"
          checked={config.requireName}
          onChange={(requireName) => setConfig({ requireName })}
        />
        <Check label="Tenants" checked={config.tenants} onChange={(tenants) => setConfig({ tenants })} />
        <Check
          label="Anonymous upgrade"
          checked={config.autoUpgrade}
          onChange={(autoUpgrade) => setConfig({ autoUpgrade })}
        />
        <Check
          label="Restrict sign-up (unauthorized user)"
          checked={config.restrictSignUp}
          onChange={(restrictSignUp) => setConfig({ restrictSignUp })}
        />
        <Check
          label="Force same device for email links"
          checked={config.forceSameDevice}
          onChange={(forceSameDevice) => setConfig({ forceSameDevice })}
        />
        <Check
          label="No web storage"
          checked={config.noStorage}
          onChange={(noStorage) => setConfig({ noStorage })}
        />
        <button type="button" onClick={() => world.admin({ op: 'config', config: DEFAULT_CONFIG })}>
          Default config
        </button>
      </section>

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
          <button
            type="button"
            onClick={() =>
              withAccount('Verification email', (uid) =>
                world.admin({ op: 'sendVerificationEmail', uid, url: pageUrl() }),
              )
            }
          >
            Send verification email
          </button>
          <button
            type="button"
            onClick={() =>
              withAccount('Password reset', (uid) =>
                world.admin({ op: 'sendPasswordReset', uid, url: pageUrl() }),
              )
            }
          >
            Send password reset
          </button>
          <button
            type="button"
            onClick={() =>
              withAccount('Change email', (uid) =>
                world.admin({ op: 'changeEmail', uid, email: newEmail, url: pageUrl() }),
              )
            }
          >
            Change email (sends recover link)
          </button>
          <button
            type="button"
            onClick={() =>
              withAccount('Verify and change email', (uid) =>
                world.admin({ op: 'verifyAndChangeEmail', uid, email: newEmail, url: pageUrl() }),
              )
            }
          >
            Verify and change email
          </button>
          <button
            type="button"
            onClick={() =>
              withAccount('Second factor', (uid) =>
                world.admin({ op: 'addSecondFactor', uid, phone: '+12015550199', url: pageUrl() }),
              )
            }
          >
            Add second factor
          </button>
        </div>
        <p role="status">{status}</p>
      </section>

      <section aria-labelledby="pg-world">
        <h2 id="pg-world">World</h2>
        <p>
          World <code>{world.id}</code>: seeded accounts ada@example.com / secret123 (password),
          grace@example.com (Google), linus@example.com (email link), margaret@example.com (Microsoft, not
          offered), ken@acme.com / secret123 (Acme tenant). Phone: United Kingdom (+44) numbers are blocked by
          the widget config.
        </p>
        <button
          type="button"
          onClick={async () => {
            await world.reset();
            location.assign(pageUrl());
          }}
        >
          Reset world
        </button>
      </section>
    </aside>
  );
}
