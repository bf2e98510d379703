import { uiText } from '@doorway/auth-core';
import cardsCss from '@doorway/ui-cards/styles.css?inline';
import type { MetaFunction } from '@remix-run/node';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import type { ReactNode } from 'react';
import appCss from './app.css?inline';
import { SiteHeader } from './components/SiteHeader.tsx';
import { hostConfig, publicConfig } from './config.server.ts';
import { useNonce } from './nonce.ts';
import type { PublicConfig } from './public-config.ts';

/**
 * The CSS of every page, the widget's and the frame's, inlined in the document's head: the first card is a
 * working form at first paint, and a stylesheet request would hold that paint back by a round trip (about a
 * second on a slow mobile network). Both are small (about 1.5 kB gzipped together).
 */
export const PAGE_CSS = `${cardsCss}\n${appCss}`;
// It is set as the <style>'s raw text: it must not be able to close the element.
if (/<\/style/i.test(PAGE_CSS)) throw new Error('remix-host: the page CSS must not contain "</style"');

export const meta: MetaFunction = () => [{ title: 'Doorway' }];

/**
 * The title of a page of the sign-in flow, from its card's title (`cardTitle`: "Error: " first while the
 * card shows an error): the routes' `meta` on the server's card, the widget's `onTitle` after each step.
 */
export const pageTitle = (card: string) => `${card} – Sign in – Doorway`;

/** The client-safe configuration, for every page's widget. */
export const loader = () => ({ config: publicConfig(hostConfig()) });

// The configuration is fixed for the life of the process: no need to fetch it again on navigation.
export const shouldRevalidate = () => false;

/** The public configuration from the root loader (throws outside the app's pages). */
export function usePublicConfig(): PublicConfig {
  const data = useRouteLoaderData<typeof loader>('root');
  if (!data) throw new Error('remix-host: the root loader did not run');
  return data.config;
}

/**
 * A route's `handle`: `scripts(data)` returning `false` serves the page with that loader data as a static
 * page, without any script (Remix's way to disable JavaScript per page): its forms post to the server.
 */
export interface PageHandle {
  scripts?(data: unknown): boolean;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const scripts = useMatches().every(
    (match) => (match.handle as PageHandle | undefined)?.scripts?.(match.data) !== false,
  );
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="data:," />
        <Meta />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the app's own CSS, a build-time constant that cannot close the element (checked above); React would escape it as text. */}
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: PAGE_CSS }} />
        <Links />
      </head>
      <body>
        <SiteHeader />
        <main className="host-main">{children}</main>
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/**
 * Unexpected errors and unknown pages: a generic card, never an error message or a stack trace; the
 * response keeps its status (404, 403, 500…).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const text =
    status === 404
      ? 'This page does not exist.'
      : status < 500
        ? 'This request could not be handled.'
        : 'Something went wrong. Please try again.';
  return (
    <div className="doorway" data-card="unrecoverableError">
      <section className="doorway-card">
        <h1 className="doorway-title" tabIndex={-1}>
          {uiText.unrecoverableErrorTitle}
        </h1>
        <p className="doorway-text">{text}</p>
        <div className="doorway-actions">
          <a className="doorway-button" href="/">
            Home
          </a>
        </div>
      </section>
    </div>
  );
}
