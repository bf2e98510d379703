import '@doorway/ui-cards/styles.css';
import './playground.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { IdpPage } from './IdpPage.tsx';
import { openWorld } from './world.ts';

const container = document.getElementById('root');
if (!container) throw new Error('no #root');
const root = createRoot(container);

if (location.pathname === '/idp') {
  root.render(
    <StrictMode>
      <IdpPage />
    </StrictMode>,
  );
} else if (new URLSearchParams(location.search).get('provider') === 'supabase') {
  // adapter-supabase on the in-memory GoTrue double (not Supabase), loaded only in this mode.
  void Promise.all([import('./SupabaseApp.tsx'), import('./supabaseWorld.ts')]).then(
    async ([{ SupabaseApp }, { openSupabaseWorld }]) => {
      const world = await openSupabaseWorld();
      root.render(
        <StrictMode>
          <SupabaseApp world={world} />
        </StrictMode>,
      );
    },
  );
} else {
  void openWorld().then((world) =>
    root.render(
      <StrictMode>
        <App world={world} />
      </StrictMode>,
    ),
  );
}
