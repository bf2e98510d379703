// @vitest-environment node
/**
 * What the first chunk holds, bundled as `npm run bench` bundles the widget (esbuild, code splitting): the
 * first cards, the config, the runner and the `START` transition; not the rest of the engine, the later
 * cards or the phone data, which load after the first card. Modules, not sizes (sizes are the bench's).
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function bundle(): Promise<Metafile> {
  const result = await build({
    entryPoints: { doorway: join(root, 'packages', 'ui-cards', 'src', 'index.ts') },
    absWorkingDir: root,
    conditions: ['@doorway/source'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: join(root, 'bench', '.out', 'first-chunk-test'),
    external: ['react', 'react/*', 'react-dom', 'react-dom/*'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  return result.metafile;
}

/** The modules (repo-relative) of the entry chunk and the chunks it imports statically, and of the rest. */
function modulesByLoad(metafile: Metafile): { first: Set<string>; later: Set<string> } {
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
  const later = new Set<string>();
  for (const [file, output] of Object.entries(outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      if (bytesInOutput > 0) (initial.has(file) ? first : later).add(relative(root, join(root, input)));
  return { first, later };
}

describe('the first chunk', async () => {
  const { first, later } = modulesByLoad(await bundle());

  it('holds the first cards, the config, the runner and the START transition', () => {
    for (const m of [
      'packages/ui-cards/src/SignInWidget.tsx',
      'packages/ui-cards/src/cards/start.tsx',
      'packages/auth-core/src/config.ts',
      'packages/auth-core/src/flow.ts',
      'packages/auth-core/src/start.ts',
    ])
      expect(first, m).toContain(m);
  });

  it('leaves the rest of the engine, the later cards and the phone data to chunks loaded after it', () => {
    const afterwards = [
      'packages/auth-core/src/transition.ts',
      'packages/auth-core/src/execute.ts',
      'packages/auth-core/src/action.ts',
      'packages/auth-core/src/emailLinkStore.ts',
      'packages/ui-cards/src/cards/password.tsx',
      'packages/ui-cards/src/cards/link.tsx',
      'packages/ui-cards/src/cards/status.tsx',
      'packages/ui-cards/src/cards/phone.tsx',
      'packages/ui-cards/src/cards/PhoneNumberForm.tsx',
      'packages/ui-cards/src/phoneNumbers.ts',
      'packages/ui-cards/src/phone-metadata.ts',
    ];
    for (const m of afterwards) {
      expect(first, m).not.toContain(m);
      expect(later, m).toContain(m);
    }
  });
});
