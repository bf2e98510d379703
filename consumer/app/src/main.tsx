import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Login } from './Login.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('no #root');
createRoot(container).render(
  <StrictMode>
    <Login />
  </StrictMode>,
);
