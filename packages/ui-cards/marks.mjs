#!/usr/bin/env node
// The providers' marks of styles.css: SVG drawn into the stylesheet as data URLs, so the first card shows them
// without another request and without a byte of JavaScript. `npm run marks -w @doorway/ui-cards` rewrites the
// block between the MARKS markers of src/styles.css; a unit test fails when the block is not what this writes.
//
// GitHub, Apple, Facebook and X: Simple Icons (CC0), the path their owners publish, drawn in the text colour
// (CSS mask). Google's "G" and Microsoft's four squares: full colour, as their sign-in guidelines ask. Yahoo's
// "Y!" and the marks of email, phone, guest, passkey and other identity providers (SAML, OIDC): drawn here.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
export const STYLES = join(here, 'src', 'styles.css');
const BEGIN = '/* MARKS: written by marks.mjs, do not edit */';
const END = '/* END MARKS */';

/**
 * Path data with its numbers to one decimal: on a 24-unit mark drawn 20 px wide that is under a tenth of a
 * pixel, and the stylesheet is smaller. A number that loses its point keeps a space before a next one that
 * starts with a point (`1.04.5` must not become `1.5`).
 */
export function roundPath(d) {
  return d.replace(/-?\d*\.\d+/g, (number, at, all) => {
    const sign = number.startsWith('-') ? '-' : '';
    const digits = String(Math.round(Math.abs(Number(number)) * 10) / 10).replace(/^0\./, '.');
    // A number written without sign or leading digit after another one needs a space once it has a digit.
    const before = /[\d.]/.test(all[at - 1] ?? '') && !sign && !digits.startsWith('.') ? ' ' : '';
    const after = all[at + number.length] === '.' && !digits.includes('.') ? ' ' : '';
    return before + sign + digits + after;
  });
}

/** A Simple Icons icon's path data (24×24). */
function simpleIcon(slug) {
  const svg = readFileSync(require.resolve(`simple-icons/icons/${slug}.svg`), 'utf8');
  const d = /<path d="([^"]+)"/.exec(svg)?.[1];
  if (!d) throw new Error(`simple-icons: no path in ${slug}.svg`);
  return `<path d="${roundPath(d)}"/>`;
}

const line = (d) =>
  `<path d="${d}" fill="none" stroke="#000" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>`;

/**
 * Each mark: its SVG body and viewBox, and `mono` when it is drawn in the button's text colour (a mask)
 * rather than in its own colours.
 */
export const MARKS = {
  email: { mono: true, body: `${line('M3 5h18v14H3z')}${line('m3 6 9 7 9-7')}` },
  phone: {
    mono: true,
    body: `${line('M8 2h8a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2z')}${line('M11 18h2')}`,
  },
  anonymous: {
    mono: true,
    body: `${line('M12 4a4 4 0 1 1 0 8 4 4 0 0 1 0-8z')}${line('M4 21c0-4 3.6-6 8-6s8 2 8 6')}`,
  },
  // A passkey: a key.
  passkey: {
    mono: true,
    body: `${line('M7 8a4 4 0 1 1 0 8 4 4 0 0 1 0-8z')}${line('M11 12h10m-3 0v3m-3-3v2')}`,
  },
  // Any other identity provider (SAML, OIDC): a door with an arrow going in.
  other: {
    mono: true,
    body: `${line('M14 3h5a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1h-5')}${line('M3 12h11m-4-4 4 4-4 4')}`,
  },
  'google.com': {
    mono: false,
    viewBox: '0 0 48 48',
    body:
      '<path fill="#EA4335" d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"/>' +
      '<path fill="#4285F4" d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"/>' +
      '<path fill="#FBBC05" d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"/>' +
      '<path fill="#34A853" d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"/>',
  },
  'github.com': { mono: true, body: simpleIcon('github') },
  'microsoft.com': {
    mono: false,
    viewBox: '0 0 21 21',
    body:
      '<path fill="#F25022" d="M0 0h10v10H0z"/><path fill="#7FBA00" d="M11 0h10v10H11z"/>' +
      '<path fill="#00A4EF" d="M0 11h10v10H0z"/><path fill="#FFB900" d="M11 11h10v10H11z"/>',
  },
  'apple.com': { mono: true, body: simpleIcon('apple') },
  'facebook.com': { mono: true, body: simpleIcon('facebook') },
  'twitter.com': { mono: true, body: simpleIcon('x') },
  'yahoo.com': {
    mono: true,
    body: '<path d="M0 5h5l4 7 4-7h5l-6.5 10v5h-5v-5z"/><path d="M19 3h5l-2 12h-2z"/><circle cx="21" cy="19" r="2"/>',
  },
};

/** An SVG as a CSS `url()`: quotes made single, and only the characters a data URL must not hold escaped. */
export function svgUrl({ body, viewBox = '0 0 24 24' }) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}">${body}</svg>`
    .replaceAll('"', "'")
    .replace(/[%#<>]/g, encodeURIComponent);
  return `url("data:image/svg+xml,${svg}")`;
}

/** The stylesheet block: one custom property per mark, on the buttons of its provider. */
export function marksCss() {
  const rules = Object.entries(MARKS).map(([id, mark]) => {
    const selector = id === 'other' ? '.doorway-provider' : `.doorway-provider[data-provider="${id}"]`;
    // A mono mark is a mask over the text colour; a coloured one is the icon itself, unmasked.
    const property = mark.mono ? '--doorway-mark' : '--doorway-icon';
    const unmask = mark.mono ? '' : '\n  --doorway-mark: none;';
    return `${selector} {\n  ${property}: ${svgUrl(mark)};${unmask}\n}`;
  });
  return `${BEGIN}\n${rules.join('\n')}\n${END}`;
}

/** styles.css with its marks block as this module writes it. */
export function withMarks(css) {
  const start = css.indexOf(BEGIN);
  const end = css.indexOf(END);
  if (start === -1 || end === -1) throw new Error('styles.css: no MARKS block');
  return css.slice(0, start) + marksCss() + css.slice(end + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(STYLES, withMarks(readFileSync(STYLES, 'utf8')));
  console.log('styles.css: marks written');
}
