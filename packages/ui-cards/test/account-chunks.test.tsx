// @vitest-environment node
/**
 * Where `@doorway/ui-cards/account` goes when bundled as `npm run bench` bundles the widget (esbuild, code
 * splitting): the widget's entry never reaches it, its own entry leaves the QR code library (lean-qr) to
 * the chunk the authenticator step imports, and of the sign-in widget it carries only the cards' plain parts.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function bundle(entry: string): Promise<Metafile> {
  const result = await build({
    entryPoints: { entry: join(root, 'packages', 'ui-cards', 'src', entry) },
    absWorkingDir: root,
    conditions: ['@doorway/source'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: join(root, 'bench', '.out', 'account-chunks-test'),
    external: ['react', 'react/*', 'react-dom', 'react-dom/*'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  return result.metafile;
}

/** The modules (repo-relative) of the entry chunk with its static imports, and of every chunk. */
function modules(metafile: Metafile): { first: Set<string>; all: Set<string> } {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((f) => outputs[f]?.entryPoint);
  const initial = new Set<string>();
  const visit = (file: string) => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const imp of outputs[file]?.imports ?? [])
      if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
  };
  if (entry) visit(entry);
  const first = new Set<string>();
  const all = new Set<string>();
  for (const [file, output] of Object.entries(outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      if (bytesInOutput > 0) {
        const m = relative(root, join(root, input));
        all.add(m);
        if (initial.has(file)) first.add(m);
      }
  return { first, all };
}

const inAccount = (m: string) => m.startsWith('packages/ui-cards/src/account/');
const isQrLibrary = (m: string) => m.includes('node_modules/lean-qr/');

describe('the account entry', async () => {
  const widget = modules(await bundle('index.ts'));
  const account = modules(await bundle('account/index.ts'));

  it('is never part of the sign-in widget', () => {
    expect([...widget.all].filter((m) => inAccount(m) || isQrLibrary(m))).toEqual([]);
  });

  it('holds the steps, and leaves the QR library and its drawing to a later chunk', () => {
    expect(account.first).toContain('packages/ui-cards/src/account/SecondFactors.tsx');
    expect(account.first).toContain('packages/ui-cards/src/account/AddTotp.tsx');
    expect([...account.first].filter(isQrLibrary)).toEqual([]);
    expect(account.first).not.toContain('packages/ui-cards/src/account/qr.ts');
    expect([...account.all].some(isQrLibrary)).toBe(true);
    expect(account.all).toContain('packages/ui-cards/src/account/qr.ts');
  });

  it('imports none of the sign-in cards', () => {
    // Only the cards' plain parts (text, buttons, fields, spinner), without the widget's context or texts.
    expect([...account.all].filter((m) => m.startsWith('packages/ui-cards/src/') && !inAccount(m))).toEqual([
      'packages/ui-cards/src/parts.tsx',
    ]);
  });
});
