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
} else {
  void openWorld().then((world) =>
    root.render(
      <StrictMode>
        <App world={world} />
      </StrictMode>,
    ),
  );
}
