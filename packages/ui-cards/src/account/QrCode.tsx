/**
 * The QR code of the authenticator step: loads the QR chunk (`./qr.ts`) on mount, then shows the code as an
 * inline SVG image with its alternative text; a square placeholder meanwhile, and a line saying to type the
 * key instead if the chunk cannot load.
 * @module
 */
import { useEffect, useState } from 'react';
import type { QrDrawing } from './qr.ts';
import { accountText } from './text.ts';

/** The quiet zone around a QR code, in modules (ISO/IEC 18004 asks for 4). */
const QUIET = 4;

/** The QR code of `uri` (dark on light in any theme, as scanners expect). */
export function QrCode(props: { uri: string }) {
  const { uri } = props;
  const [drawing, setDrawing] = useState<QrDrawing | 'failed' | null>(null);
  useEffect(() => {
    let live = true;
    setDrawing(null);
    import('./qr.ts').then(
      (qr) => live && setDrawing(qr.drawQr(uri)),
      () => live && setDrawing('failed'),
    );
    return () => {
      live = false;
    };
  }, [uri]);
  if (drawing === 'failed') return <p className="doorway-hint">{accountText.qrFailed}</p>;
  if (drawing === null) return <div className="doorway-qr" />;
  const side = drawing.size + 2 * QUIET;
  return (
    <svg
      className="doorway-qr"
      role="img"
      aria-label={accountText.qrAlt}
      viewBox={`${-QUIET} ${-QUIET} ${side} ${side}`}
      shapeRendering="crispEdges"
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect x={-QUIET} y={-QUIET} width={side} height={side} fill="#fff" />
      <path d={drawing.path} fill="#000" />
    </svg>
  );
}
