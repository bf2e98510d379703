/**
 * The QR code of an `otpauth://` URI, drawn as one SVG path: the authenticator step's lazy chunk (`import()`
 * when that step shows), so that lean-qr weighs on nothing else. lean-qr's `nano` build encodes; the path is
 * ours, so the code is plain markup that renders the same on a server and in the browser.
 * @module
 */
import { correction, generate } from 'lean-qr/nano';

/** A QR code as SVG: `path` draws its dark modules in a `size`×`size` grid (quiet zone not included). */
export interface QrDrawing {
  size: number;
  path: string;
}

/** Draws `text` as a QR code (error correction M: a phone's camera reads it from a screen at a glance). */
export function drawQr(text: string): QrDrawing {
  const code = generate(text, { minCorrectionLevel: correction.M });
  const { size } = code;
  let path = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; ) {
      if (!code.get(x, y)) {
        x++;
        continue;
      }
      // One rectangle per run of dark modules in a row.
      let end = x + 1;
      while (end < size && code.get(end, y)) end++;
      path += `M${x} ${y}h${end - x}v1H${x}z`;
      x = end;
    }
  }
  return { size, path };
}
