// The connection's frames as the protocol view's sequence diagram: band 1 the handshake and
// tools/list, then one band per remote call. A call chosen in the transcript lights its band and
// takes focus to its request arrow; any arrow opens the byte inspector.

import { memo, useMemo } from 'react';
import { SequenceDiagram } from '../protocol/SequenceDiagram.tsx';
import type { Arrow } from '../../app/protocol/stepper-records.ts';
import { framesOfCall, turnRecords, type CallWindow } from '../../app/chapter-loop/call-frames.ts';
import { useAgentText } from './use-chapter-loop-text.ts';

export interface TurnDiagramProps {
  arrows: readonly Arrow[];
  windows: readonly CallWindow[];
  highlight: { call: number; at: number } | null;
  onInspect(seq: number): void;
}

export const TurnDiagram = memo(function TurnDiagram({ arrows, windows, highlight, onInspect }: TurnDiagramProps) {
  const t = useAgentText();
  const { records, bandOfCall } = useMemo(() => turnRecords(arrows, windows), [arrows, windows]);
  const band = highlight ? (bandOfCall.get(highlight.call) ?? null) : null;
  const focus = useMemo(() => {
    if (highlight === null) return null;
    const window = windows.find((w) => w.call === highlight.call);
    const request = window ? framesOfCall(window, arrows).requests[0] : undefined;
    return request ? { seq: request.seq, at: highlight.at } : null;
  }, [highlight, windows, arrows]);
  return (
    <section className="agent-diagram" id="agent-diagram" aria-labelledby="agent-diagram-heading" data-highlight-band={band ?? ''}>
      <h3 id="agent-diagram-heading">{t('diagram.heading')}</h3>
      <p className="hint">{t('diagram.intro')}</p>
      <div className="agent-diagram__scroll">
        <SequenceDiagram records={records} waiting={null} currentStep={band} focus={focus} onInspect={onInspect} labelId="agent-diagram-heading" />
      </div>
    </section>
  );
});
