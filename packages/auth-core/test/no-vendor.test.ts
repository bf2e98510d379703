import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// auth-core must stay provider-neutral: no vendor SDK (nor a WebAuthn library) may be imported anywhere in its source.
const VENDORS =
  /from\s+['"](firebase|firebase-admin|@firebase\/[^'"]*|@supabase\/[^'"]*|aws-amplify|@aws-amplify\/[^'"]*|firebaseui|@simplewebauthn\/[^'"]*)(\/[^'"]*)?['"]|import\(\s*['"](firebase|@supabase|aws-amplify|@simplewebauthn)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? sources(path)
      : /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)
        ? [path]
        : [];
  });
}

describe('auth-core imports no vendor SDK', () => {
  const files = sources(join(import.meta.dirname, '..', 'src'));

  it('scans the whole source tree', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files.some((f) => f.endsWith('transition.ts'))).toBe(true);
  });

  it.each(files.map((f) => [f.slice(f.indexOf('src')), f]))('%s imports no vendor SDK', (_name, file) => {
    expect(readFileSync(file, 'utf8')).not.toMatch(VENDORS);
  });

  it('the check itself recognises a vendor import', () => {
    expect("import { getAuth } from 'firebase/auth';").toMatch(VENDORS);
    expect("import { createClient } from '@supabase/supabase-js';").toMatch(VENDORS);
    expect("import type { RegistrationResponseJSON } from '@simplewebauthn/server';").toMatch(VENDORS);
    expect("await import('@simplewebauthn/browser')").toMatch(VENDORS);
  });
});
