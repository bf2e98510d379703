import type { WidgetConfigInput } from '@doorway/auth-core';
import { SignInWidget } from '@doorway/ui-cards';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { BackendSwitch, Check, Choice } from './Panel.tsx';
import { SUPABASE_DOUBLE_LABEL, SUPABASE_SEED_USERS, type SupabaseWorld } from './supabaseWorld.ts';
import { DEFAULT_CONFIG, type PlaygroundConfig } from './world.ts';

/**
 * The widget config in Supabase mode: email (password or link), phone and anonymous. No federated options
 * (the double's IdP is not a page here) and no tenants (Supabase has none); the adapter's capabilities
 * decide the rest (no lookup: the combined, enumeration-safe password card).
 */
function widgetConfig(c: PlaygroundConfig): WidgetConfigInput {
  return {
    signInOptions: [
      {
        provider: 'email',
        signInMethod: c.emailMethod,
        requireDisplayName: c.requireName,
        forceSameDevice: c.forceSameDevice,
      },
      { provider: 'phone', defaultCountry: 'US' },
      'anonymous',
    ],
    displayMode: c.displayMode,
    autoUpgradeAnonymousUsers: c.autoUpgrade,
    tosUrl: '/terms',
    privacyPolicyUrl: '/privacy',
    callbacks: {
      // Stay on the page: the playground shows who signed in instead of redirecting.
      signInSuccess: () => false,
    },
  };
}

/** The playground in Supabase mode: the widget on adapter-supabase over the GoTrue double, and its panel. */
export function SupabaseApp({ world }: { world: SupabaseWorld }) {
  const [, changed] = useReducer((n: number) => n + 1, 0);
  const [mount, remount] = useReducer((n: number) => n + 1, 0);
  useEffect(() => world.subscribe(changed), [world]);
  const settings = world.config();
  const config = useMemo(() => widgetConfig(settings), [settings]);

  return (
    <div className="playground">
      <header className="playground-header">
        <p className="playground-brand">Doorway playground: {SUPABASE_DOUBLE_LABEL}</p>
      </header>
      <main className="playground-main">
        <SignInWidget
          key={`${mount}:${JSON.stringify(settings)}`}
          config={config}
          provider={world.provider}
          storage={settings.noStorage ? null : undefined}
        />
      </main>
      <SupabasePanel world={world} onRemount={remount} />
    </div>
  );
}

/** The side panel in Supabase mode: session, the double's outbox, widget config and the world. */
function SupabasePanel({ world, onRemount }: { world: SupabaseWorld; onRemount: () => void }) {
  const { provider, double } = world;
  const user = provider.getCurrentUser();
  const config = world.config();
  const [status, setStatus] = useState('');
  const setConfig = (patch: Partial<PlaygroundConfig>) => world.setConfig({ ...config, ...patch });
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
      setStatus('');
    } catch (e) {
      setStatus(e instanceof Error ? e.message : String(e));
    }
    onRemount();
  };
  const emails = [...double.outbox.emails].reverse();
  const sms = [...double.outbox.sms].reverse();

  return (
    <aside className="playground-panel" aria-label="Playground controls">
      <BackendSwitch current="supabase" world={world.id} />
      <p className="playground-note">
        The widget runs on <code>@doorway/adapter-supabase</code> (supabase-js) against an in-memory{' '}
        <strong>test double</strong> of the GoTrue API in this page, not against Supabase.
      </p>

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
        <p role="status">{status}</p>
      </section>

      <section aria-labelledby="pg-outbox">
        <h2 id="pg-outbox">Outbox</h2>
        {emails.length === 0 && sms.length === 0 ? <p>Nothing sent yet.</p> : null}
        <ul className="playground-outbox" aria-label="Emails">
          {emails.map((m) => (
            <li key={`${m.sentAt}:${m.data.TokenHash ?? ''}:${m.to}`}>
              <span>
                {m.type} email to {m.to}
              </span>
              {m.link ? (
                <span className="playground-row">
                  <a
                    href={m.link}
                    aria-label={`Open ${m.type} link for ${m.to}`}
                    onClick={(e) => {
                      e.preventDefault();
                      void world.flushed().then(() => location.assign(m.link ?? ''));
                    }}
                  >
                    Open link
                  </a>
                  <button
                    type="button"
                    aria-label={`Open ${m.type} link for ${m.to} as another device`}
                    onClick={() => {
                      world.becomeAnotherDevice();
                      void world.flushed().then(() => location.assign(m.link ?? ''));
                    }}
                  >
                    Open as another device
                  </button>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        <ul className="playground-outbox" aria-label="Text messages">
          {sms.map((m) => (
            <li key={`${m.sentAt}:${m.to}`}>
              SMS to {m.to}: code <code data-testid="sms-code">{m.otp}</code>
            </li>
          ))}
        </ul>
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
        <Check
          label="Anonymous upgrade"
          checked={config.autoUpgrade}
          onChange={(autoUpgrade) => setConfig({ autoUpgrade })}
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
        <button type="button" onClick={() => world.setConfig(DEFAULT_CONFIG)}>
          Default config
        </button>
      </section>

      <section aria-labelledby="pg-world">
        <h2 id="pg-world">World</h2>
        <p>
          World <code>{world.id}</code> on the {SUPABASE_DOUBLE_LABEL}: seeded account{' '}
          {SUPABASE_SEED_USERS.map((u) => `${u.email} / ${u.password}`).join(', ')}. No tenants, no federated
          sign-in; "Confirm email" is off, so creating an account signs in at once.
        </p>
        <button
          type="button"
          onClick={async () => {
            await world.reset();
            location.assign(world.pageUrl());
          }}
        >
          Reset world
        </button>
      </section>
    </aside>
  );
}
