// The protocol view: the handshake stepper, the failure-mode lab and the framing comparison. The
// byte inspector opens over it (and over the live panel's log) from ProtocolServicesProvider.

import { lazy, Suspense, useRef } from 'react';
import { FailureLab } from './FailureLab.tsx';
import { FramingCompare } from './FramingCompare.tsx';
import { StepperPanel } from './StepperPanel.tsx';
import { useProtocolText } from './use-protocol-text.ts';
import './protocol-view.css';

// The era switch and its cards: their text and code load with the view, not the first paint.
const EraPanel = lazy(() => import('./EraPanel.tsx'));

export interface ProtocolViewProps {
  initialStep?: number | null;
  onCursorChange?: (cursor: number) => void;
}

export function ProtocolView({ initialStep = null, onCursorChange }: ProtocolViewProps) {
  const t = useProtocolText();
  const stepperRef = useRef<HTMLDivElement>(null);
  return (
    <section className="pane protocol-view" id="protocol-view" aria-labelledby="protocol-view-heading">
      <h2 id="protocol-view-heading">{t('view.heading')}</h2>
      <p className="hint">{t('view.intro')}</p>
      <Suspense fallback={null}>
        <EraPanel />
      </Suspense>
      <div ref={stepperRef}>
        <StepperPanel initialStep={initialStep} onCursorChange={onCursorChange} />
      </div>
      <FailureLab onShow={() => stepperRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })} />
      <FramingCompare />
    </section>
  );
}
