// Copy a frame's bytes as hex, base64 or text. When the clipboard is refused (no permission, an
// insecure context) the text is shown selected, so it can still be copied by hand.

import { useState } from 'react';
import { COPY_FORMATS, formatBytes, type CopyFormat } from '../../protocol/inspect/hex-rows.ts';
import { useProtocolText } from './use-protocol-text.ts';

export function CopyBar({ bytes }: { bytes: Uint8Array }) {
  const t = useProtocolText();
  const [status, setStatus] = useState<{ format: CopyFormat; ok: boolean } | null>(null);

  const copy = async (format: CopyFormat) => {
    try {
      await navigator.clipboard.writeText(formatBytes(bytes, format));
      setStatus({ format, ok: true });
    } catch {
      setStatus({ format, ok: false });
    }
  };

  return (
    <div className="copy-bar">
      <span>{t('inspector.copy')}</span>
      {COPY_FORMATS.map((format) => (
        <button key={format} type="button" onClick={() => void copy(format)}>
          {t(`inspector.formats.${format}`)}
        </button>
      ))}
      <span role="status" className="hint">
        {status?.ok ? t('inspector.copied', { format: t(`inspector.formats.${status.format}`) }) : null}
      </span>
      {status && !status.ok && (
        <>
          <p className="notice">{t('inspector.copyFailed')}</p>
          <textarea className="mono copy-bar__fallback" readOnly value={formatBytes(bytes, status.format)} ref={(node) => node?.select()} rows={4} />
        </>
      )}
    </div>
  );
}
