/**
 * A tenant named by a URL on the host's form path (`/login?mode=select&tenantId=X`, an action link's
 * `tenantId`) is refused unless configured, before anything happens on it (issue 24, item 13).
 */
import { createFakeProvider, createFakeServerProvider, type FakeProvider } from '@doorway/adapter-fake';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import { describe, expect, it } from 'vitest';
import { ACTION_PAGE } from '../app/action.server.ts';
import { type HostConfig, parseHostConfig } from '../app/config.server.ts';
import { type LoginView, runFormPath } from '../app/form-path.server.ts';
import { fakeSessions, request } from './fakes.ts';

const ORIGIN = 'http://127.0.0.1:3000';

/** A browser without JavaScript on the fake; `tenants` lists every tenant the provider was set to. */
function browser(config: HostConfig, world: FakeProvider) {
  const tenants: (string | null)[] = [];
  const jar = new Map<string, string>();
  const provider = (): ServerAuthProvider => {
    const base = createFakeServerProvider(world);
    return {
      ...base,
      setTenant(tenantId) {
        tenants.push(tenantId);
        return base.setTenant(tenantId);
      },
    };
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  async function send(req: Request, action = false): Promise<LoginView | Response> {
    const out = await runFormPath(req, {
      config,
      provider,
      sessions: () => fakeSessions(),
      ...(action ? { page: ACTION_PAGE } : {}),
    });
    const headers = out instanceof Response ? out.headers : out.headers;
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return out instanceof Response ? out : out.view;
  }
  return {
    tenants,
    get: (path: string) => send(request(path, { headers: { cookie: cookie() } }), path.startsWith('/action')),
    post: (fields: Record<string, string>, path = '/login') =>
      send(
        request(path, {
          method: 'POST',
          origin: ORIGIN,
          headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        }),
        path.startsWith('/action'),
      ),
  };
}

function view(out: LoginView | Response): LoginView {
  if (out instanceof Response)
    throw new Error(`expected a page, got ${out.status} ${out.headers.get('location')}`);
  return out;
}

describe('a tenant from the URL on the host (issue 24)', () => {
  it('/login?mode=select&tenantId=X without configured tenants: refused, and no sign-in on X', async () => {
    const world = createFakeProvider();
    world.backend.createUser({ email: 'bo@example.com', password: 'secret123', tenantId: 'evil' });
    const b = browser(parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: 'email' }), world);
    const first = view(await b.get('/login?mode=select&tenantId=evil'));
    expect(first.state).toMatchObject({ card: 'emailEntry', tenantId: null, error: 'operation-not-allowed' });
    // Before, the flow looked the address up in tenant X and offered its password card.
    const next = view(await b.post({ event: 'SUBMIT_EMAIL', email: 'bo@example.com' }));
    expect(next.state).toMatchObject({ card: 'passwordSignUp', tenantId: null });
    expect(b.tenants).not.toContain('evil');
  });

  it('with configured tenants, a listed one is taken and another refused', async () => {
    const world = createFakeProvider();
    const config = parseHostConfig({
      DOORWAY_SIGN_IN_OPTIONS: 'email',
      DOORWAY_TENANTS: '[{"id":"acme","displayName":"ACME"}]',
    });
    const refused = browser(config, world);
    expect(view(await refused.get('/login?mode=select&tenantId=evil')).state).toMatchObject({
      tenantId: null,
      error: 'operation-not-allowed',
    });
    const taken = browser(config, world);
    expect(view(await taken.get('/login?mode=select&tenantId=acme')).state).toMatchObject({
      tenantId: 'acme',
      error: null,
    });
  });

  it('an action link naming an unconfigured tenant: refused without touching its code', async () => {
    const world = createFakeProvider();
    world.backend.createUser({ email: 'bo@example.com', password: 'secret123', tenantId: 'evil' });
    const other = createFakeServerProvider(world);
    await other.setTenant('evil');
    await other.sendPasswordResetEmail('bo@example.com', { url: `${ORIGIN}/login` });
    const mail = world.backend.outbox.lastEmail('bo@example.com', 'resetPassword');
    expect(mail?.tenantId).toBe('evil');
    const b = browser(parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: 'email' }), world);
    const page = view(await b.get(`/action?mode=resetPassword&oobCode=${mail?.oobCode}&tenantId=evil`));
    expect(page.state).toMatchObject({ card: 'recoverableError', message: 'invalid-action-code' });
    expect(b.tenants).toEqual([]);
    // The code is still good in its own tenant: nothing used it.
    await expect(other.verifyPasswordResetCode(mail?.oobCode ?? '')).resolves.toBe('bo@example.com');
  });
});
