import type { WidgetConfigInput } from '@doorway/auth-core';
import { SignInWidget } from '@doorway/ui-cards';
import { useEffect, useMemo, useReducer } from 'react';
import {
  BackendSwitch,
  ConfigSection,
  OutboxSection,
  type PanelBackend,
  SessionSection,
  useActions,
  WorldSection,
} from './panelParts.tsx';
import { SUPABASE_DOUBLE_LABEL, SUPABASE_SEED_USERS, type SupabaseWorld } from './supabaseWorld.ts';
import type { PlaygroundConfig } from './world.ts';

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
    theme: c.theme,
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

/** The GoTrue double as the panel shows it: its outbox, the widget switches Supabase has, its world. */
function supabaseBackend(world: SupabaseWorld): PanelBackend {
  return {
    name: 'supabase',
    worldId: world.id,
    provider: world.provider,
    emails: () =>
      [...world.outbox().emails].reverse().map((m) => ({
        key: `${m.sentAt}:${m.tokenHash ?? ''}:${m.to}`,
        kind: m.type,
        to: m.to,
        link: m.link ?? null,
      })),
    sms: () =>
      [...world.outbox().sms].reverse().map((m) => ({ key: `${m.sentAt}:${m.to}`, to: m.to, code: m.otp })),
    // No federated sign-in (the double's IdP is not a page here), no tenants, no sign-up restriction.
    switches: [
      'displayMode',
      'emailMethod',
      'theme',
      'requireName',
      'autoUpgrade',
      'forceSameDevice',
      'noStorage',
    ],
    config: () => world.config(),
    setConfig: (config) => world.setConfig(config),
    pageUrl: () => world.pageUrl(),
    flushed: () => world.flushed(),
    becomeAnotherDevice: () => world.becomeAnotherDevice(),
    reset: () => world.reset(),
  };
}

/** The side panel in Supabase mode: session, the double's outbox, widget config and the world. */
function SupabasePanel({ world, onRemount }: { world: SupabaseWorld; onRemount: () => void }) {
  const backend = supabaseBackend(world);
  const { status, act } = useActions(onRemount, true);
  return (
    <aside className="playground-panel" aria-label="Playground controls">
      <BackendSwitch current="supabase" world={world.id} />
      <p className="playground-note">
        The widget runs on <code>@doorway/adapter-supabase</code> (supabase-js) against an in-memory{' '}
        <strong>test double</strong> of the GoTrue API on the playground's server, not against Supabase.
      </p>
      <SessionSection provider={world.provider} act={act}>
        <p role="status">{status}</p>
      </SessionSection>
      <OutboxSection backend={backend} />
      <ConfigSection backend={backend} />
      <WorldSection backend={backend}>
        World <code>{world.id}</code> on the {SUPABASE_DOUBLE_LABEL}: seeded account{' '}
        {SUPABASE_SEED_USERS.map((u) => `${u.email} / ${u.password}`).join(', ')}. No tenants, no federated
        sign-in; "Confirm email" is off, so creating an account signs in at once.
      </WorldSection>
    </aside>
  );
}
