import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Login } from './Login.tsx';

/** The widget's first card as HTML, rendered in Node by react-dom/server from the installed packages. */
export function render(): string {
  return renderToString(
    <StrictMode>
      <Login />
    </StrictMode>,
  );
}
