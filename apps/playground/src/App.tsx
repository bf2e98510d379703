import type { AuthCredential, WidgetConfigInput } from '@doorway/auth-core';
import { SignInWidget } from '@doorway/ui-cards';
import { lazy, Suspense, useEffect, useMemo, useReducer, useState } from 'react';
import { Panel } from './Panel.tsx';
import type { PlaygroundConfig, World } from './world.ts';

// The account page's chunk (and its QR code's) loads once someone signs in, not with the playground.
const AccountCard = lazy(() => import('./AccountCard.tsx').then((m) => ({ default: m.AccountCard })));

/** The widget config for the panel's switches. */
function widgetConfig(
  c: PlaygroundConfig,
  onConflict: (credential: AuthCredential) => void,
): WidgetConfigInput {
  return {
    signInOptions: [
      {
        provider: 'email',
        signInMethod: c.emailMethod,
        requireDisplayName: c.requireName,
        disableSignUp: c.restrictSignUp ? { adminEmail: 'admin@example.com' } : false,
        forceSameDevice: c.forceSameDevice,
      },
      // United Kingdom numbers are refused, to show the unsupported-country message.
      { provider: 'phone', defaultCountry: 'US', blockedCountries: ['GB'] },
      'google.com',
      'github.com',
      'anonymous',
      'passkey',
    ],
    displayMode: c.displayMode,
    theme: c.theme,
    signInFlow: c.signInFlow,
    autoUpgradeAnonymousUsers: c.autoUpgrade,
    tosUrl: '/terms',
    privacyPolicyUrl: '/privacy',
    tenants: c.tenants
      ? [
          { id: null, displayName: 'Everyone (default tenant)' },
          { id: 'acme', displayName: 'Acme Corp', emailDomains: ['acme.com'] },
        ]
      : undefined,
    callbacks: {
      // Stay on the page: the playground shows who signed in instead of redirecting.
      signInSuccess: () => false,
      signInFailure: (error) => {
        if (error.credential) onConflict(error.credential);
      },
    },
  };
}

/** The playground: the widget on the fake backend, and the side panel that drives the backend. */
export function App({ world }: { world: World }) {
  const [, changed] = useReducer((n: number) => n + 1, 0);
  const [mount, remount] = useReducer((n: number) => n + 1, 0);
  const [conflict, setConflict] = useState<AuthCredential | null>(null);
  useEffect(() => world.subscribe(changed), [world]);
  const settings = world.config();
  const config = useMemo(() => widgetConfig(settings, setConflict), [settings]);
  const user = world.provider.getCurrentUser();

  return (
    <div className="playground">
      <header className="playground-header">
        <p className="playground-brand">Doorway playground</p>
      </header>
      <main className="playground-main">
        <SignInWidget
          key={`${mount}:${JSON.stringify(settings)}`}
          config={config}
          provider={world.provider}
          clock={world.clock}
          storage={settings.noStorage ? null : undefined}
        />
        {user && !user.isAnonymous ? (
          <Suspense fallback={null}>
            <AccountCard key={user.uid} provider={world.provider} />
          </Suspense>
        ) : null}
      </main>
      <Panel
        world={world}
        conflict={conflict}
        onRemount={() => {
          setConflict(null);
          remount();
        }}
      />
    </div>
  );
}
