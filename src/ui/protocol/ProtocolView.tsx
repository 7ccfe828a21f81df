// The protocol view: the handshake stepper (stdio) or the HTTP stepper (Streamable HTTP), the
// failure-mode lab and the framing comparison. The byte inspector opens over it (and over the live
// panel's log) from ProtocolServicesProvider; the HTTP stepper has its own, and loads only when
// the learner switches to HTTP.

import { lazy, Suspense, useRef, useState } from 'react';
import { FailureLab } from './FailureLab.tsx';
import { FramingCompare } from './FramingCompare.tsx';
import { StepperPanel } from './StepperPanel.tsx';
import { useProtocolText } from './use-protocol-text.ts';
import './protocol-view.css';

const HttpView = lazy(() => import('./HttpView.tsx'));
// The era switch and its cards: their text and code load with the view, not the first paint.
const EraPanel = lazy(() => import('./EraPanel.tsx'));

export interface ProtocolViewProps {
  initialStep?: number | null;
  onCursorChange?: (cursor: number) => void;
}

type Transport = 'stdio' | 'http';

export function ProtocolView({ initialStep = null, onCursorChange }: ProtocolViewProps) {
  const t = useProtocolText();
  const stepperRef = useRef<HTMLDivElement>(null);
  const [transport, setTransport] = useState<Transport>('stdio');
  return (
    <section className="pane protocol-view" id="protocol-view" aria-labelledby="protocol-view-heading">
      <h2 id="protocol-view-heading">{t('view.heading')}</h2>
      <p className="hint">{t('view.intro')}</p>
      <fieldset className="inline-radios transport-switch" data-testid="transport-switch">
        <legend>{t('http.switch.label')}</legend>
        {(['stdio', 'http'] as const).map((kind) => (
          <label key={kind}>
            <input type="radio" name="protocol-transport" checked={transport === kind} onChange={() => setTransport(kind)} />
            {t(`http.switch.${kind}`)}
          </label>
        ))}
      </fieldset>
      <Suspense fallback={null}>
        {/* The era runs are stdio stepper runs: choosing one shows the stdio stepper. */}
        <EraPanel onUse={() => setTransport('stdio')} />
      </Suspense>
      <div ref={stepperRef}>
        {transport === 'stdio' ? (
          <StepperPanel initialStep={initialStep} onCursorChange={onCursorChange} />
        ) : (
          <Suspense fallback={<p className="hint">…</p>}>
            <HttpView />
          </Suspense>
        )}
      </div>
      <FailureLab
        onShow={() => {
          // The lab's cards run on the stdio stepper.
          setTransport('stdio');
          stepperRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
        }}
      />
      <FramingCompare />
    </section>
  );
}
