/**
 * The form path's Remix side (`form-path.server.ts`): the view an action renders reaches the loaders of
 * its own request only, through that request's load context, and nothing of it stays behind.
 * @see issue 24
 */
import { describe, expect, it } from 'vitest';
import { formAction, formLoader, LOGIN_PAGE } from '../app/form-path.server.ts';
import { ORIGIN, request } from './fakes.ts';

/** What Remix's `data()` gives a route: the value under `data`. */
const viewIn = (out: unknown) => (out as { data: { state: { card: string } } }).data;

/** A visitor's flow cookie, from the first card's GET. */
async function flowCookie(): Promise<string> {
  const out = (await formLoader(page(), { clientAddress: '198.51.100.1' })) as {
    init: { headers: Headers };
  };
  const [line = ''] = new Headers(out.init.headers).getSetCookie();
  return line.split(';')[0] ?? '';
}

const choose = (cookie: string) =>
  request('/login', {
    method: 'POST',
    origin: ORIGIN,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ event: 'CHOOSE_PROVIDER', providerId: 'email' }).toString(),
  });

const page = (cookie = '') => request('/login', { headers: { cookie } });

describe('the action’s view, handed to the loader (issue 24)', () => {
  it('reaches the loader of the same request through its load context, once, and leaves nothing on it', async () => {
    const cookie = await flowCookie();
    const context = { clientAddress: '203.0.113.1' };
    const acted = viewIn(await formAction(choose(cookie), context));
    expect(acted.state.card).toBe('emailEntry');
    // Remix's loaders after an action get a copy of its request (same URL and headers) and its context.
    expect(viewIn(await formLoader(page(cookie), context)).state.card).toBe('emailEntry');
    expect(Object.getOwnPropertySymbols(context)).toEqual([]);
    // Taken once: a later request on the same object renders from its own cookie (the first card's).
    expect(viewIn(await formLoader(page(cookie), context)).state.card).toBe('providerChooser');
  });

  it('never reaches another request, even one sharing the context object', async () => {
    const [a, b] = [await flowCookie(), await flowCookie()];
    const shared = { clientAddress: '203.0.113.2' };
    expect(viewIn(await formAction(choose(a), shared)).state.card).toBe('emailEntry');
    // Another visitor (other cookies) on the same object gets their own card.
    expect(viewIn(await formLoader(page(b), shared)).state.card).toBe('providerChooser');
    // And another request's context never sees it.
    expect(viewIn(await formAction(choose(a), { clientAddress: '203.0.113.3' })).state.card).toBe(
      'emailEntry',
    );
    expect(viewIn(await formLoader(page(a), { clientAddress: '203.0.113.3' })).state.card).toBe(
      'providerChooser',
    );
  });

  it('a code-mode URL of the sign-in page goes to /action before the flow runs, for a POST too', async () => {
    const query = '?mode=resetPassword&oobCode=CODE-1';
    const context = { clientAddress: '203.0.113.4' };
    const post = request(`/login${query}`, {
      method: 'POST',
      origin: ORIGIN,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ event: 'CHOOSE_PROVIDER', providerId: 'email' }).toString(),
    });
    const acted = (await formAction(post, context, LOGIN_PAGE)) as Response;
    expect(acted.status).toBe(303);
    expect(acted.headers.get('location')).toBe(`/action${query}`);
    // No flow ran: no flow cookie, and nothing kept for the loaders.
    expect(acted.headers.get('set-cookie')).toBeNull();
    expect(Object.getOwnPropertySymbols(context)).toEqual([]);
    await expect(formLoader(request(`/login${query}`), context, LOGIN_PAGE)).rejects.toMatchObject({
      status: 303,
    });
  });
});
