// The HTTP byte inspector in a modal dialog, for one relayed connection: opened from the HTTP
// stepper's arrows and from an HTTP trace's log rows and diagram arrows. Focus returns to what
// opened it.

import { useEffect, useRef } from 'react';
import type { HttpExchangeRecord } from '../../app/protocol/http-exchanges.ts';
import { HttpInspector } from './HttpInspector.tsx';
import { useProtocolText } from './use-protocol-text.ts';
import './http-view.css';

export function HttpInspectorDialog({ exchange, onClose }: { exchange: HttpExchangeRecord<unknown> | null; onClose(): void }) {
  const t = useProtocolText();
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<Element | null>(null);
  const open = exchange !== null;
  useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    if (open && !node.open) {
      returnFocus.current = document.activeElement;
      node.showModal();
    } else if (!open && node.open) node.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="inspector-dialog"
      aria-labelledby="http-inspector-title"
      onClose={() => {
        onClose();
        const previous = returnFocus.current;
        if (previous instanceof HTMLElement) previous.focus();
      }}
    >
      {exchange && (
        <>
          <header className="inspector-dialog__header">
            <h2 id="http-inspector-title">{t('http.inspector.title', { conn: exchange.conn, request: exchange.request })}</h2>
            <button type="button" onClick={onClose}>
              {t('http.inspector.close')}
            </button>
          </header>
          <HttpInspector exchange={exchange} />
        </>
      )}
    </dialog>
  );
}
