import { useEffect, useState } from 'react';

/**
 * A QR code of `text`, drawn as one SVG path from the `qrcode` library's module matrix (no data:
 * URL, no canvas: the page's CSP allows neither, and the path stays sharp on a projector).
 * The library loads with the first code shown.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [drawing, setDrawing] = useState<{ size: number; path: string } | null>(null);
  useEffect(() => {
    let current = true;
    void import('qrcode').then((QRCode) => {
      const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
      let path = '';
      for (let row = 0; row < modules.size; row++) {
        for (let column = 0; column < modules.size; column++) if (modules.get(row, column)) path += `M${column} ${row}h1v1h-1z`;
      }
      if (current) setDrawing({ size: modules.size, path });
    });
    return () => {
      current = false;
    };
  }, [text]);
  if (drawing === null) return <div className="room-qr room-qr--loading" aria-hidden="true" />;
  const margin = 4;
  const box = drawing.size + margin * 2;
  return (
    <svg className="room-qr" viewBox={`${-margin} ${-margin} ${box} ${box}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect x={-margin} y={-margin} width={box} height={box} fill="#fff" />
      <path d={drawing.path} fill="#000" />
    </svg>
  );
}
