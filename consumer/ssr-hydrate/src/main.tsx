import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { Login } from './Login.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('no #root');
// Over the server's HTML: a mismatch is a console error, which fails the check.
hydrateRoot(
  container,
  <StrictMode>
    <Login />
  </StrictMode>,
);
