import { describe, expect, it } from 'vitest';
import { logServerError } from '../app/server-errors.ts';

const request = (init?: RequestInit) => new Request('http://127.0.0.1:3000/x', init);

/** What Remix's router hands `handleError` for a URL no route matches (an internal ErrorResponse). */
const noRoute = {
  status: 404,
  statusText: 'Not Found',
  internal: true,
  data: 'Error: No route matches URL "/favicon.ico"',
  error: new Error('No route matches URL "/favicon.ico"'),
};

describe('logServerError', () => {
  it('logs an error a loader or action threw', () => {
    const logged: unknown[] = [];
    const error = new Error('boom');
    logServerError(error, request(), (e) => logged.push(e));
    expect(logged).toEqual([error]);
  });

  it('logs the Error inside a route error response that is not a 404', () => {
    const logged: unknown[] = [];
    const inner = new Error('bad method');
    logServerError(
      { ...noRoute, status: 405, statusText: 'Method Not Allowed', error: inner },
      request(),
      (e) => logged.push(e),
    );
    expect(logged).toEqual([inner]);
  });

  it('does not log an unknown URL (404) or a request the visitor aborted', () => {
    const logged: unknown[] = [];
    logServerError(noRoute, request(), (e) => logged.push(e));
    const controller = new AbortController();
    controller.abort();
    logServerError(new Error('late'), request({ signal: controller.signal }), (e) => logged.push(e));
    expect(logged).toEqual([]);
  });
});
