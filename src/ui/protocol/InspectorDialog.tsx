// The byte inspector as a modal dialog: opened from any arrow of the diagram or any frame of the
// message log, closed with its button or Escape, focus returned to where it was. Mounted on every
// view, so the protocol view's text and the inspector itself load only when the dialog first opens.

import { lazy, Suspense, useEffect, useRef } from 'react';
import { useStore } from '../hooks/use-store.ts';
import { arrowLabel } from '../../app/protocol/arrow-text.ts';
import type { InspectTarget } from '../../app/protocol/inspect-target.ts';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { useProtocolText } from './use-protocol-text.ts';

// Loaded when a frame is first inspected: the dialog is on every view, its content on none at first.
const ByteInspector = lazy(() => import('./ByteInspector.tsx').then((module) => ({ default: module.ByteInspector })));

export function InspectorDialog() {
  const { ui } = useProtocolServices();
  const { inspect } = useStore(ui);
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<Element | null>(null);

  useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    if (inspect && !node.open) {
      returnFocus.current = document.activeElement;
      node.showModal();
    } else if (!inspect && node.open) {
      node.close();
    }
  }, [inspect]);

  return (
    <dialog
      ref={dialog}
      className="inspector-dialog"
      aria-labelledby="inspector-title"
      onClose={() => {
        ui.closeInspector();
        const previous = returnFocus.current;
        if (previous instanceof HTMLElement || previous instanceof SVGElement) previous.focus();
      }}
    >
      {inspect && (
        <Suspense fallback={null}>
          <InspectorContent target={inspect} onClose={() => ui.closeInspector()} />
        </Suspense>
      )}
    </dialog>
  );
}

function InspectorContent({ target, onClose }: { target: InspectTarget; onClose(): void }) {
  const t = useProtocolText();
  const close = useRef<HTMLButtonElement>(null);
  // When the text arrived after the dialog opened, focus goes where showModal() would have put it.
  useEffect(() => {
    const dialog = close.current?.closest('dialog');
    if (dialog?.open && (document.activeElement === dialog || !dialog.contains(document.activeElement))) close.current?.focus();
  }, []);
  return (
    <>
      <header className="inspector-dialog__header">
        <h2 id="inspector-title">{t('inspector.title', { what: arrowLabel(t, target) })}</h2>
        <button type="button" ref={close} onClick={onClose}>
          {t('inspector.close')}
        </button>
      </header>
      <ByteInspector target={target} />
    </>
  );
}
