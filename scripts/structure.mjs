#!/usr/bin/env node
// `node scripts/structure.mjs`: the structure rules of product source (packages/*/src, apps/remix-host/app,
// apps/playground/src; tests and generated data aside), checked in `npm test`:
//   - no function longer than MAX_FUNCTION_LINES lines;
//   - no table of handlers longer than that either: an object literal whose properties are functions
//     (see `isHandlerTable`) is behaviour as much as a function is, so it is held to the same length;
//   - no import circle (relative imports and workspace packages, resolved to their source).
// Prints each breach and exits 1 when there is one. `--list N` prints the N longest functions and the N
// longest tables of handlers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 120;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['apps/remix-host/app', 'apps/playground/src'];
for (const name of readdirSync(join(root, 'packages'))) SOURCE_DIRS.push(`packages/${name}/src`);
const CODE = /\.(ts|tsx|mts|mjs)$/;
const NOT_PRODUCT = /(\.test\.|\.test-d\.|\.spec\.|\/test\/|\/generated\/|\.generated\.)/;

function walk(dir, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (CODE.test(name) && !NOT_PRODUCT.test(path) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const files = SOURCE_DIRS.flatMap((dir) => walk(join(root, dir)));
const parse = (file) =>
  ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText();
  if (parent && ts.isCallExpression(parent))
    return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function with a body: [lines, file, line, name]. */
export function functionLengths() {
  const rows = [];
  for (const file of files) {
    const sf = parse(file);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart()).line;
        const end = sf.getLineAndCharacterOfPosition(node.end).line;
        rows.push([end - start + 1, relative(root, file), start + 1, nameOf(node)]);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return rows.sort((a, b) => b[0] - a[0]);
}

/** `x satisfies T`, `x as T`, `(x)`: the `x`. */
function unwrap(node) {
  let n = node;
  while (ts.isSatisfiesExpression(n) || ts.isAsExpression(n) || ts.isParenthesizedExpression(n))
    n = n.expression;
  return n;
}

/**
 * Whether a property of an object literal is a handler: a method, a function, or an object literal that
 * holds a handler itself (a case with its functions, a table of tables).
 */
function isHandler(property) {
  if (ts.isMethodDeclaration(property) || ts.isGetAccessorDeclaration(property)) return true;
  if (ts.isSetAccessorDeclaration(property)) return true;
  if (!ts.isPropertyAssignment(property)) return false;
  const value = unwrap(property.initializer);
  if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return true;
  return ts.isObjectLiteralExpression(value) && value.properties.some(isHandler);
}

/**
 * Whether an object literal is a table of handlers: most of its own properties (more than half; spreads
 * aside) are handlers. Data with a function or two in it (a text catalogue with a few formatted texts)
 * is not one.
 */
function isHandlerTable(node) {
  const own = node.properties.filter((p) => !ts.isSpreadAssignment(p));
  return own.length > 0 && own.filter(isHandler).length * 2 > own.length;
}

/** Every table of handlers that is not inside a bigger one: [lines, file, line, name]. */
export function handlerTableLengths() {
  const rows = [];
  for (const file of files) {
    const sf = parse(file);
    const visit = (node) => {
      if (ts.isObjectLiteralExpression(node) && isHandlerTable(node)) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart()).line;
        const end = sf.getLineAndCharacterOfPosition(node.end).line;
        let holder = node.parent;
        while (holder && !ts.isVariableDeclaration(holder) && !ts.isPropertyAssignment(holder)) {
          holder = ts.isSourceFile(holder) ? undefined : holder.parent;
        }
        const name = holder ? holder.name.getText() : '(object literal)';
        rows.push([end - start + 1, relative(root, file), start + 1, `table ${name}`]);
        return; // the tables inside it are counted with it
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return rows.sort((a, b) => b[0] - a[0]);
}

/** Workspace package name → { dir, exports: subpath → source file }. */
function workspacePackages() {
  const map = new Map();
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const dir = join(root, group, name);
      let pkg;
      try {
        pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      const exports = new Map();
      for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
        const source = typeof target === 'object' && target !== null ? target['@doorway/source'] : null;
        if (typeof source === 'string') exports.set(sub, resolve(dir, source));
      }
      map.set(pkg.name, { dir, exports });
    }
  }
  return map;
}

function resolveImport(from, spec, packages) {
  if (spec.startsWith('.')) {
    const base = resolve(dirname(from), spec);
    for (const candidate of [
      base,
      base.replace(/\.js$/, '.ts'),
      `${base}.ts`,
      `${base}.tsx`,
      join(base, 'index.ts'),
    ]) {
      try {
        if (statSync(candidate).isFile()) return candidate;
      } catch {}
    }
    return null;
  }
  const match = /^(@doorway\/[^/]+)(\/.*)?$/.exec(spec);
  if (!match) return null;
  return packages.get(match[1])?.exports.get(`.${match[2] ?? ''}`) ?? null;
}

/** Import circles among product source files (each a list of files). */
export function importCircles() {
  const packages = workspacePackages();
  const set = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((ref) => resolveImport(file, ref.fileName, packages))
      .filter((target) => target !== null && set.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  // Tarjan's strongly connected components.
  let index = 0;
  const stack = [];
  const meta = new Map();
  const circles = [];
  const strong = (v) => {
    meta.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!meta.has(w)) {
        strong(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).on = false;
        component.push(relative(root, w));
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) strong(v);
  return circles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const listAt = process.argv.indexOf('--list');
  const lengths = functionLengths();
  const tables = handlerTableLengths();
  if (listAt !== -1) {
    const count = Number(process.argv[listAt + 1] ?? 20);
    for (const row of [...lengths.slice(0, count), ...tables.slice(0, count)]) console.log(row.join('\t'));
  }
  const long = [...lengths, ...tables].filter(([lines]) => lines > MAX_FUNCTION_LINES);
  for (const [lines, file, line, name] of long) {
    console.log(`${file}:${line}: ${name} is ${lines} lines (at most ${MAX_FUNCTION_LINES})`);
  }
  const circles = importCircles();
  for (const circle of circles) console.log(`import circle: ${circle.join(' ↔ ')}`);
  console.log(
    `structure: ${files.length} files, longest function ${lengths[0]?.[0] ?? 0} lines, longest table of handlers ${tables[0]?.[0] ?? 0} lines, ${long.length} over ${MAX_FUNCTION_LINES}, ${circles.length} import circles`,
  );
  process.exit(long.length + circles.length > 0 ? 1 : 0);
}
