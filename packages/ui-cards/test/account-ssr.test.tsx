// @vitest-environment node
/**
 * `@doorway/ui-cards/account` on a server: importing it touches no `window` or `document`, and
 * `renderToString(<SecondFactors>)` renders the list step without calling the provider (the list loads once
 * mounted in the browser). Also the QR drawing of the lazy chunk, which is plain markup on a server too.
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import { correction, generate } from 'lean-qr/nano';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SecondFactors } from '../src/account/index.ts';
import { drawQr } from '../src/account/qr.ts';

describe('<SecondFactors> on a server', () => {
  it('runs without window or document', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
  });

  it('renders the list step (loading) and its buttons, with no provider call', () => {
    const fake = createFakeProvider({ users: [{ email: 'ann@example.com', password: 'secret-123' }] });
    const html = renderToString(<SecondFactors provider={fake} />);
    expect(html).toContain('<h2 class="doorway-title" tabindex="-1">Two-step verification</h2>');
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('Add text-message (SMS) factor');
    expect(html).toContain('Add authenticator app');
    expect(html).toContain('role="status"');
    expect(fake.backend.calls).toHaveLength(0);
  });

  it('renders the note when the provider offers no second factors', () => {
    const fake = createFakeProvider({ capabilities: { secondFactors: [] } });
    const html = renderToString(<SecondFactors provider={fake} />);
    expect(html).toContain('Two-step verification is not available for this account.');
    expect(html).not.toContain('<button');
  });
});

describe('drawQr', () => {
  it('draws exactly the dark modules of the QR code, one rectangle per run', () => {
    const uri = 'otpauth://totp/Doorway:ann%40example.com?issuer=Doorway&secret=JBSWY3DPEHPK3PXP';
    const { size, path } = drawQr(uri);
    const code = generate(uri, { minCorrectionLevel: correction.M });
    expect(size).toBe(code.size);
    const drawn = new Set<string>();
    for (const [, x, y, width, back] of path.matchAll(/M(\d+) (\d+)h(\d+)v1H(\d+)z/g)) {
      expect(back).toBe(x);
      for (let i = 0; i < Number(width); i++) drawn.add(`${Number(x) + i},${y}`);
    }
    expect(path.replace(/M\d+ \d+h\d+v1H\d+z/g, '')).toBe('');
    const dark = new Set<string>();
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (code.get(x, y)) dark.add(`${x},${y}`);
    expect(drawn).toEqual(dark);
    // The finder pattern's top row: 7 dark modules from the corner.
    expect(path.startsWith('M0 0h7v1H0z')).toBe(true);
  });
});
