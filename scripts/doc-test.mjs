#!/usr/bin/env node
// `npm run doc-test`: every TypeScript code block (```ts, ```tsx, ```typescript) of README.md,
// packages/*/README.md, apps/*/README.md and docs/**/*.md, type-checked as an app would: each block is its own
// module under .cache/doc-test/, compiled with `strict` (noEmit, jsx react-jsx, moduleResolution bundler)
// against the packages' public exports. `@doorway/*` resolve through the workspace links to each package's
// `exports` with the `@doorway/source` condition, as the repo's typecheck does, so no build is needed first;
// a subpath a package does not export fails here as it would in an app.
//
// A block that is deliberately a fragment is marked ```ts fragment, or preceded by the line
// `<!-- doc-test: skip -->`; it is counted and listed as skipped. `--json FILE` writes the counts in the
// shape scripts/test.mjs reads. Exits 1 when a block does not compile.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.cache', 'doc-test');
const OPENING = /^(\s*)(`{3,}|~{3,})\s*(ts|tsx|typescript)\b(.*)$/;
const SKIP_COMMENT = /^<!--\s*doc-test:\s*skip\b\s*(.*?)\s*-->$/;

function markdownFiles() {
  const files = ['README.md'];
  for (const group of ['packages', 'apps'])
    for (const name of readdirSync(join(root, group)).sort())
      if (existsSync(join(root, group, name, 'README.md'))) files.push(`${group}/${name}/README.md`);
  const walk = (dir) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return files.filter((file) => existsSync(join(root, file)));
}

/** The TypeScript blocks of one markdown file: { file, line, lang, code, skip, reason }. */
export function extractBlocks(file, text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]);
    if (!open) {
      // Skip any other fenced block whole, so a ```ts inside a ```md example is not taken for a block.
      const other = /^(\s*)(`{3,}|~{3,})/.exec(lines[i]);
      if (other) {
        const fence = other[2];
        for (i++; i < lines.length && !lines[i].trim().startsWith(fence); i++);
      }
      continue;
    }
    const [, indent, fence, lang, info] = open;
    let previous = i - 1;
    while (previous >= 0 && lines[previous].trim() === '') previous--;
    const comment = previous >= 0 ? SKIP_COMMENT.exec(lines[previous].trim()) : null;
    const skip = /\bfragment\b/.test(info) || comment !== null;
    const reason = comment?.[1]?.replace(/^\((.*)\)$/, '$1') || 'marked as a fragment';
    const body = [];
    const start = i + 1;
    for (i++; i < lines.length && !lines[i].trim().startsWith(fence); i++)
      body.push(lines[i].startsWith(indent) ? lines[i].slice(indent.length) : lines[i].trimStart());
    blocks.push({
      file,
      line: start,
      lang: lang === 'tsx' ? 'tsx' : 'ts',
      code: body.join('\n'),
      skip,
      reason,
    });
  }
  return blocks;
}

const options = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  customConditions: ['@doorway/source'],
  jsx: ts.JsxEmit.ReactJSX,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  isolatedModules: true,
  verbatimModuleSyntax: true,
  resolveJsonModule: true,
  skipLibCheck: true,
  allowImportingTsExtensions: true,
};

function main() {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : null;
  const blocks = markdownFiles().flatMap((file) =>
    extractBlocks(file, readFileSync(join(root, file), 'utf8')),
  );
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const checked = blocks.filter((b) => !b.skip);
  const byPath = new Map();
  for (const block of checked) {
    const name = `${block.file.replace(/[/.]/g, '_')}_L${block.line}.${block.lang}`;
    const path = join(out, name);
    // Every block is a module of its own, so two blocks may declare the same names.
    writeFileSync(path, `${block.code}\nexport {};\n`);
    byPath.set(path, block);
  }
  const program = ts.createProgram([...byPath.keys()], options);
  const failing = new Map();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const block = d.file ? byPath.get(d.file.fileName) : null;
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!block) {
      // A diagnostic outside the blocks (options, a package's own types) fails every block alike.
      console.error(`error TS${d.code}: ${d.file ? `${relative(root, d.file.fileName)}: ` : ''}${message}`);
      for (const b of checked) failing.set(b, [...(failing.get(b) ?? [])]);
      continue;
    }
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    const where = `${block.file}:${block.line + 1 + line}:${character + 1}`;
    const list = failing.get(block) ?? [];
    list.push(`${where} error TS${d.code}: ${message}`);
    failing.set(block, list);
  }
  for (const [block, errors] of failing) {
    console.log(`✗ ${block.file}:${block.line} (\`\`\`${block.lang})`);
    for (const error of errors) console.log(`    ${error.replace(/\n/g, '\n    ')}`);
  }
  const skipped = blocks.filter((b) => b.skip);
  for (const b of skipped) console.log(`- ${b.file}:${b.line} skipped: ${b.reason}`);
  const fragments = skipped.length
    ? ` (${skipped.length} fragment${skipped.length === 1 ? '' : 's'} skipped)`
    : '';
  const summary =
    failing.size === 0
      ? `${checked.length} blocks, all compile${fragments}`
      : `${checked.length} blocks, ${failing.size} do not compile${fragments}`;
  console.log(summary);
  if (jsonFile)
    writeFileSync(
      jsonFile,
      JSON.stringify({
        summary,
        numPassedTests: checked.length - failing.size,
        numFailedTests: failing.size,
        numPendingTests: skipped.length,
        testResults: [...failing].map(([block, errors]) => ({
          name: join(root, block.file),
          assertionResults: [
            {
              status: 'failed',
              fullName: `block at line ${block.line}`,
              failureMessages: [errors.join('\n')],
            },
          ],
        })),
      }),
    );
  process.exit(failing.size === 0 ? 0 : 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
