// The GoTrue TEST DOUBLE (`@doorway/gotrue-double`, not Supabase) for a Node process: the Supabase host's
// e2e server (scripts/host-supabase.mjs) and the playground's dev and preview servers. The double is
// TypeScript in the workspace, so it is bundled for Node from source (msw and supabase-js stay package
// imports), with the adapter's email templates, into `outfile`, and imported.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles the double and imports it: `createGoTrueDouble`, `goTrueDoubleListener`, `serveGoTrueDouble`, `SUPABASE_EMAIL_TEMPLATES`. */
export async function loadGoTrueDouble(outfile) {
  const { build } = await import('esbuild');
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    stdin: {
      contents:
        "export { createGoTrueDouble } from '@doorway/gotrue-double';\n" +
        "export { goTrueDoubleListener, serveGoTrueDouble } from '@doorway/gotrue-double/http';\n" +
        "export { SUPABASE_EMAIL_TEMPLATES } from '@doorway/adapter-supabase';\n",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@doorway/source'],
    external: ['msw', 'msw/*', '@supabase/*'],
    outfile,
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}
