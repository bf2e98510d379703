/**
 * The GoTrue TEST DOUBLE (`@doorway/gotrue-double`, not Supabase) of the playground's Supabase mode, served
 * by the Vite dev and preview servers: one double per world, made on its first request, at
 * `/__gotrue/<world>/auth/v1/*` (GoTrue's API, through the double's own `node:http` listener), with
 * `GET /__gotrue/<world>` (its anon key and outbox, for the panel) and `DELETE /__gotrue/<world>` (forget
 * it). The page's supabase-js talks to it over HTTP like to a Supabase project, so the playground's source
 * never imports the double; every browser context on the server shares it, which is what lets an emailed
 * link be opened on "another device". In memory: gone when the server stops.
 *
 * The double is TypeScript in the workspace: it is bundled for Node from source
 * (`scripts/gotrue-double-bundle.mjs`) into `.cache/playground/` on the server's first start.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { loadGoTrueDouble } from '../../scripts/gotrue-double-bundle.mjs';
import { DOUBLE_PATH, type DoubleView, SUPABASE_SEED_USERS } from './src/supabaseSetup.ts';

type DoubleModule = Pick<typeof import('@doorway/gotrue-double'), 'createGoTrueDouble'> &
  Pick<typeof import('@doorway/gotrue-double/http'), 'goTrueDoubleListener'> &
  Pick<typeof import('@doorway/adapter-supabase'), 'SUPABASE_EMAIL_TEMPLATES'>;
type GoTrueDouble = ReturnType<DoubleModule['createGoTrueDouble']>;
type Listener = ReturnType<DoubleModule['goTrueDoubleListener']>;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The project URL the doubles are made with: never reached, the server strips its own path instead. */
const PROJECT_URL = 'http://gotrue-double.supabase.test';

/** The double (and the adapter's email templates), bundled for Node into `.cache/playground/`. */
async function loadDouble(): Promise<DoubleModule> {
  return (await loadGoTrueDouble(join(ROOT, '.cache', 'playground', 'gotrue-double.mjs'))) as DoubleModule;
}

/** A new world's double for the playground at `origin`: as the adapter's contract runs it, users seeded. */
function newDouble(lib: DoubleModule, origin: string): GoTrueDouble {
  const double = lib.createGoTrueDouble({
    projectUrl: PROJECT_URL,
    siteUrl: origin,
    uriAllowList: [`${origin}/**`],
    // "Confirm email" off, "Secure email change" off, "Confirm phone" on: as the adapter's contract runs.
    mailerAutoconfirm: true,
    smsAutoconfirm: false,
    anonymousUsers: true,
    manualLinking: true,
    secureEmailChange: false,
    templates: lib.SUPABASE_EMAIL_TEMPLATES,
    // Served to a page, the double keeps the page's time: its tokens expire when supabase-js says they do.
    clock: { wall: true },
  });
  for (const user of SUPABASE_SEED_USERS) {
    double.admin.createUser({
      email: user.email,
      password: user.password,
      email_confirm: true,
      user_metadata: { full_name: user.name },
    });
  }
  return double;
}

function viewOf(double: GoTrueDouble): DoubleView {
  return {
    anonKey: double.anonKey,
    emails: double.outbox.emails.map((m) => ({
      to: m.to,
      type: m.type,
      link: m.link,
      tokenHash: m.data.TokenHash ?? null,
      sentAt: m.sentAt,
    })),
    sms: double.outbox.sms.map((m) => ({ to: m.to, otp: m.otp, sentAt: m.sentAt })),
  };
}

const ROUTE = new RegExp(`^${DOUBLE_PATH}/([\\w.-]{1,64})(/auth/v1(?:/.*)?)?$`);

export function gotrueDouble(): Plugin {
  let lib: Promise<DoubleModule> | undefined;
  /** The doubles by world and origin (a world's links and redirects are its page's). */
  const doubles = new Map<string, { double: GoTrueDouble; listener: Listener }>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path = '', query] = (req.url ?? '').split(/\?(.*)/s);
    const [, world = '', api] = ROUTE.exec(path) ?? [];
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    const key = `${world} ${origin}`;
    if (req.method === 'DELETE' && api === undefined) {
      for (const k of [...doubles.keys()]) if (k.startsWith(`${world} `)) doubles.delete(k);
      res.statusCode = 204;
      res.end();
      return;
    }
    lib ??= loadDouble();
    const loaded = await lib;
    let entry = doubles.get(key);
    if (!entry) {
      const double = newDouble(loaded, origin);
      entry = { double, listener: loaded.goTrueDoubleListener(double) };
      doubles.set(key, entry);
    }
    if (api === undefined) {
      if (req.method !== 'GET') {
        res.statusCode = 405;
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.setHeader('cache-control', 'no-store');
      res.end(JSON.stringify(viewOf(entry.double)));
      return;
    }
    // GoTrue's API at the double's own path (`/auth/v1/...`).
    req.url = query === undefined ? api : `${api}?${query}`;
    await entry.listener(req, res);
  }

  const middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    if (!ROUTE.test((req.url ?? '').split('?')[0] ?? '')) {
      next();
      return;
    }
    handle(req, res).catch(next);
  };

  return {
    name: 'playground-gotrue-double',
    configureServer(server) {
      server.middlewares.use(middleware);
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware);
    },
  };
}
