// The byte inspector as a modal dialog: opened from any arrow of the diagram or any frame of the
// message log, closed with its button or Escape, focus returned to where it was. Mounted on every
// view, so the protocol view's text and the inspector itself load only when the dialog first opens.

import { Suspense, useEffect, useRef, useState } from 'react';
import { useStore } from '../hooks/use-store.ts';
import { arrowLabel } from '../../app/protocol/arrow-text.ts';
import type { InspectTarget } from '../../app/protocol/inspect-target.ts';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { useProtocolText } from './use-protocol-text.ts';

// The inspector's code, loaded when a frame is first inspected (it was a sixth of every view's
// first paint). The dialog opens once it is here, so an open dialog always shows the bytes.
type InspectorModule = typeof import('./ByteInspector.tsx');
let loadedInspector: InspectorModule | null = null;
let loadingInspector: Promise<InspectorModule> | null = null;
function loadInspector(): Promise<InspectorModule> {
  loadingInspector ??= import('./ByteInspector.tsx').then(
    (module) => (loadedInspector = module),
    (error: unknown) => {
      loadingInspector = null; // the next inspection tries again
      throw error;
    },
  );
  return loadingInspector;
}

export function InspectorDialog() {
  const { ui } = useProtocolServices();
  const { inspect } = useStore(ui);
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<Element | null>(null);
  const [inspector, setInspector] = useState<InspectorModule | 'failed' | null>(loadedInspector);

  // Each inspection while the code is missing asks for it (again, after a failure).
  useEffect(() => {
    if (!inspect || loadedInspector) return;
    setInspector(null);
    let current = true;
    loadInspector().then(
      (module) => current && setInspector(module),
      () => current && setInspector('failed'),
    );
    return () => {
      current = false;
    };
  }, [inspect]);

  const ready = inspector !== null;
  useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    if (inspect && ready && !node.open) {
      returnFocus.current = document.activeElement;
      node.showModal();
    } else if (!inspect && node.open) {
      node.close();
    }
  }, [inspect, ready]);

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
      {inspect && ready && (
        <Suspense fallback={null}>
          <InspectorContent target={inspect} inspector={inspector} onClose={() => ui.closeInspector()} />
        </Suspense>
      )}
    </dialog>
  );
}

function InspectorContent({ target, inspector, onClose }: { target: InspectTarget; inspector: InspectorModule | 'failed'; onClose(): void }) {
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
      {inspector === 'failed' ? <p role="alert">{t('inspector.unavailable')}</p> : <inspector.ByteInspector target={target} />}
    </>
  );
}
