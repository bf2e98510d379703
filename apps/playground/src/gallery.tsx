/**
 * The card gallery (gallery.html): `?card=<view>` shows that one card of `<SignInWidget>` on the fake
 * provider, from a sample state (`galleryStates.ts`), on a clock that stands still, so each picture is
 * the same every time. `?theme=light|dark` forces a theme (default: the system's), `?lastUsed=<method id>`
 * marks a chooser button "Last used". Once every chunk the card needs has loaded and it shows,
 * `<body data-ready="true">`. A test and demo page: nothing in the product links to it.
 */
import '@doorway/ui-cards/styles.css';
import './gallery.css';
import { createFakeProvider, createMemoryStorage } from '@doorway/adapter-fake';
import type { Clock, WidgetConfigInput } from '@doorway/auth-core';
import { loadCards, SignInWidget, type SignInWidgetProps } from '@doorway/ui-cards';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import {
  GALLERY_TIME,
  GALLERY_VIEWS,
  type GalleryView,
  galleryState,
  isGalleryView,
} from './galleryStates.ts';

const FEDERATED = [
  'google.com',
  'github.com',
  'microsoft.com',
  'apple.com',
  'facebook.com',
  'twitter.com',
  'yahoo.com',
] as const;

/** Timers that never fire: countdowns, the busy spinner and redirects stay as they are. */
const frozenClock: Clock = {
  now: () => GALLERY_TIME,
  setTimeout: () => 0,
  clearTimeout: () => undefined,
};

/** Every built-in option, a generic OIDC provider, the legal links; tenants for the tenant step only. */
function galleryConfig(view: GalleryView, theme: string | null): WidgetConfigInput {
  return {
    signInOptions: [
      'email',
      'phone',
      ...FEDERATED,
      'anonymous',
      { provider: 'oidc.acme', name: 'Acme SSO' },
      // The chooser's pictures show the passkey option; on the email card it would start passkey autofill.
      ...(view === 'providerChooser' ? ['passkey'] : []),
    ],
    tosUrl: '/terms',
    privacyPolicyUrl: '/privacy',
    tenants:
      view === 'tenantChooser'
        ? [
            { id: null, displayName: 'Personal account' },
            { id: 'acme', displayName: 'Acme Corp', emailDomains: ['acme.com'] },
            { id: 'globex', displayName: 'Globex', emailDomains: ['globex.com'] },
          ]
        : undefined,
    theme: theme === 'light' || theme === 'dark' ? theme : 'auto',
    callbacks: { signInSuccess: () => false },
  };
}

/** Resolves once `done()` holds, checked every frame. */
function until(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (done() ? resolve() : requestAnimationFrame(check));
    check();
  });
}

/**
 * Marks the page ready once the card is finished: the cards chunk and the fonts have loaded, and the card
 * shows without the spinner a card waiting for its chunk shows (the phone form waits for the phone chunk
 * that way too).
 */
async function markReady(view: GalleryView): Promise<void> {
  await Promise.all([loadCards(), document.fonts.ready]);
  await until(() => {
    const root = document.querySelector('.doorway');
    if (root?.getAttribute('data-card') !== view) return false;
    return view === 'spinner' || root.querySelector('.doorway-spinner') === null;
  });
  document.body.dataset.ready = 'true';
}

/** The gallery's index: a link to each view, in both themes. */
function Index() {
  return (
    <main className="gallery-index">
      <h1>Doorway cards</h1>
      <ul>
        {GALLERY_VIEWS.map((view) => (
          <li key={view}>
            <code>{view}</code> <a href={`?card=${view}&theme=light`}>light</a>{' '}
            <a href={`?card=${view}&theme=dark`}>dark</a>
          </li>
        ))}
      </ul>
    </main>
  );
}

/** The widget on `view`'s sample state, as the page's parameters ask. */
function widgetProps(view: GalleryView, params: URLSearchParams): SignInWidgetProps {
  return {
    config: galleryConfig(view, params.get('theme')),
    provider: createFakeProvider({
      clock: frozenClock,
      federatedProviders: [...FEDERATED, 'oidc.acme'],
      tenants: ['acme', 'globex'],
    }),
    initialState: galleryState(view, location.href),
    clock: frozenClock,
    storage: createMemoryStorage(),
    navigate: () => undefined,
    lastUsed: params.get('lastUsed'),
  };
}

const container = document.getElementById('root');
if (!container) throw new Error('no #root');
const params = new URLSearchParams(location.search);
const view = params.get('card');
const root = createRoot(container);
if (isGalleryView(view)) {
  const props = widgetProps(view, params);
  root.render(
    <StrictMode>
      <main className="gallery">
        <SignInWidget {...props} />
      </main>
    </StrictMode>,
  );
  void markReady(view);
} else {
  root.render(<Index />);
}
