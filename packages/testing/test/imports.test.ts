import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The suite must stay provider-neutral and use auth-core only through its public entry: a vendor SDK or a
// path into auth-core's source would tie every adapter's tests to one backend or to auth-core's layout.
// `otpauth` is the one library besides: RFC 6238, what any authenticator app computes, for TOTP codes.
// The software authenticator (its own entry, `@doorway/testing/soft-authenticator`) encodes with
// `@simplewebauthn/server/helpers` and signs with `node:crypto`; nothing else imports it at run time.
const SRC = resolve(import.meta.dirname, '../src');
const SPECIFIER = /(?:from\s+|import\(\s*)['"]([^'"]+)['"]/g;

/** The source of `file` without its comments (TSDoc examples show imports an adapter writes). */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : /\.ts$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

const ALLOWED = ['vitest', '@doorway/auth-core', 'otpauth'];
const AUTHENTICATOR_ALLOWED = ['@simplewebauthn/server/helpers', 'node:crypto'];

/** Why `specifier`, imported by `file`, is not allowed; `null` when it is. */
function refusal(file: string, specifier: string): string | null {
  if (ALLOWED.includes(specifier)) return null;
  if (file.endsWith('softAuthenticator.ts') && AUTHENTICATOR_ALLOWED.includes(specifier)) return null;
  if (!specifier.startsWith('.')) return `${specifier} is not one of ${ALLOWED.join(', ')}`;
  const target = relative(SRC, resolve(file, '..', specifier));
  return target.startsWith('..') ? `${specifier} leaves the package's source` : null;
}

describe('@doorway/testing imports', () => {
  const files = sources(SRC);

  it('scans every module of the suite, the groups included', () => {
    expect(files.some((file) => file.endsWith('runner.ts'))).toBe(true);
    expect(files.filter((file) => file.includes('groups')).length).toBeGreaterThan(5);
  });

  it('imports only vitest, the public @doorway/auth-core entry, otpauth and its own modules', () => {
    const refused = files.flatMap((file) =>
      [...code(file).matchAll(SPECIFIER)].flatMap(([, specifier = '']) => {
        const why = refusal(file, specifier);
        return why === null ? [] : [`${relative(SRC, file)}: ${why}`];
      }),
    );
    expect(refused).toEqual([]);
  });

  it('only type imports reach the software authenticator (the main entry loads no WebAuthn library)', () => {
    const runtime = /^(?:import|export)\s+(?!type\b)[^;]*from\s+['"][^'"]*softAuthenticator\.ts['"]/m;
    const importers = files.filter((file) => runtime.test(code(file)));
    expect(importers.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('the check itself refuses a vendor SDK, an auth-core subpath and a path out of the package', () => {
    const file = join(SRC, 'groups', 'phone.ts');
    expect(refusal(file, 'firebase/auth')).not.toBeNull();
    expect(refusal(file, '@doorway/auth-core/server')).not.toBeNull();
    expect(refusal(file, '../../../auth-core/src/errors.ts')).not.toBeNull();
    expect(refusal(file, '../steps.ts')).toBeNull();
    expect(refusal(file, '@simplewebauthn/server/helpers')).not.toBeNull();
    expect(refusal(join(SRC, 'softAuthenticator.ts'), '@simplewebauthn/server/helpers')).toBeNull();
  });
});
