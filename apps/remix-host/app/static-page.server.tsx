/**
 * Whole HTML pages rendered without the Remix runtime, for the action pages' form posts: they are answered
 * by a resource route (so a cross-origin post gets the app's 403 rather than Remix's document-request
 * guard, an empty 500), and their cards are static markup that needs no JavaScript anyway.
 * @module
 */
import { renderToStaticMarkup } from 'react-dom/server';
import type { ActionPage } from './action.server.ts';
import { ActionCard } from './components/ActionCard.tsx';
import { SiteHeader } from './components/SiteHeader.tsx';
import { PAGE_CSS } from './root.tsx';
import { ACTION_PAGE_HEADERS, SECURITY_HEADERS } from './security-headers.ts';

/**
 * The response to an action-card form post: the resulting card as a static page, or (for a result that
 * needs the widget) a 303 back to the action page itself.
 */
export function actionResultResponse(page: ActionPage, request: Request): Response {
  const url = new URL(request.url);
  if (page.view.card === 'widget') {
    return new Response(null, {
      status: 303,
      headers: { location: `/action${url.search}`, ...ACTION_PAGE_HEADERS },
    });
  }
  const html = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="data:," />
        <title>Doorway</title>
        <style dangerouslySetInnerHTML={{ __html: PAGE_CSS }} />
      </head>
      <body>
        <SiteHeader />
        <main className="host-main">
          <ActionCard view={page.view} query={url.search} />
        </main>
      </body>
    </html>,
  );
  return new Response(`<!DOCTYPE html>${html}`, {
    status: page.status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS, ...ACTION_PAGE_HEADERS },
  });
}
