// The turn as a transcript: the user, the model, each tool call with its arguments and where the
// tool came from, the gate's decision, the observation fed back, the final answer. A remote call
// lists its own frames (matched by JSON-RPC id) with buttons to open their bytes and to light the
// call up in the diagram.

import { memo } from 'react';
import type { Arrow } from '../../app/protocol/stepper-records.ts';
import type { TranscriptEntry } from '../../app/chapter-loop/agent-loop.ts';
import { framesOfCall, type CallWindow } from '../../app/chapter-loop/call-frames.ts';
import { argsText, originText } from '../../app/chapter-loop/describe.ts';
import type { AgentText } from '../../app/chapter-loop/text.ts';
import { useAgentText } from './use-chapter-loop-text.ts';

export interface TranscriptViewProps {
  transcript: readonly TranscriptEntry[];
  windows: readonly CallWindow[];
  arrows: readonly Arrow[];
  onInspect(seq: number): void;
  onShowInDiagram(call: number): void;
}

export const TranscriptView = memo(function TranscriptView({ transcript, windows, arrows, onInspect, onShowInDiagram }: TranscriptViewProps) {
  const t = useAgentText();
  return (
    <section className="agent-transcript" aria-labelledby="agent-transcript-heading">
      <h3 id="agent-transcript-heading">{t('transcript.heading')}</h3>
      {transcript.length === 0 ? (
        <p className="hint">{t('transcript.empty')}</p>
      ) : (
        <ol className="agent-transcript__list" data-testid="agent-transcript">
          {transcript.map((entry, index) => (
            <li key={index} className={`agent-entry agent-entry--${entry.type}`} data-type={entry.type} data-call={'call' in entry ? entry.call : undefined} data-kind={entry.type === 'observation' ? entry.kind : entry.type === 'decision' ? entry.decision : undefined}>
              <Entry t={t} entry={entry} window={'call' in entry && entry.type === 'call' ? windows.find((w) => w.call === entry.call) : undefined} arrows={arrows} onInspect={onInspect} onShowInDiagram={onShowInDiagram} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
});

function Entry({ t, entry, window, arrows, onInspect, onShowInDiagram }: { t: AgentText; entry: TranscriptEntry; window: CallWindow | undefined; arrows: readonly Arrow[]; onInspect(seq: number): void; onShowInDiagram(call: number): void }) {
  switch (entry.type) {
    case 'user':
      return (
        <p>
          <strong>{t('transcript.user')}:</strong> {entry.text}
        </p>
      );
    case 'model':
      return (
        <p>
          <strong>{t('transcript.model')}:</strong> {entry.text}
        </p>
      );
    case 'call':
      return (
        <div>
          <p>
            <strong className="mono">{entry.name !== null ? t('transcript.call', { n: entry.call, name: entry.name }) : t('transcript.callUnresolved', { n: entry.call, tool: entry.tool, server: entry.server ?? '' })}</strong>
            {entry.origin && entry.tier && <span className="hint"> — {t('transcript.from', { origin: originText(t, entry.origin), tier: entry.tier })}</span>}
          </p>
          <details open>
            <summary>{t('transcript.args')}</summary>
            <pre className="mono agent-args">{argsText(entry.args)}</pre>
          </details>
          {entry.origin?.kind === 'mcp' && window && <CallFramesView t={t} window={window} arrows={arrows} onInspect={onInspect} onShowInDiagram={onShowInDiagram} />}
        </div>
      );
    case 'decision':
      return <p className={entry.decision === 'denied' ? 'agent-decision is-denied' : 'agent-decision'}>{t(`transcript.decision.${entry.decision}`)}</p>;
    case 'observation':
      return (
        <div>
          <p>
            <strong>{t(`transcript.observation.${entry.kind}`)}:</strong>
          </p>
          <pre className={`mono agent-observation${entry.kind === 'ok' ? '' : ' is-error'}`} data-testid="agent-observation">
            {entry.text}
          </pre>
          {entry.kind === 'exception' && <p className="notice is-error">{t('transcript.exceptionWhy')}</p>}
        </div>
      );
    case 'final':
      return (
        <p data-testid="agent-final">
          <strong>{t('transcript.final')}:</strong> {entry.text}
        </p>
      );
    case 'stopped':
      return <p className="notice">{t('transcript.stopped')}</p>;
  }
}

function CallFramesView({ t, window, arrows, onInspect, onShowInDiagram }: { t: AgentText; window: CallWindow; arrows: readonly Arrow[]; onInspect(seq: number): void; onShowInDiagram(call: number): void }) {
  const frames = framesOfCall(window, arrows);
  const all = [...frames.requests, ...frames.responses];
  return (
    <div className="agent-frames" role="group" aria-label={t('transcript.frames', { n: window.call })} data-testid="call-frames">
      {all.length === 0 && window.endSeq !== null && <span className="hint">{t('transcript.noFrames')}</span>}
      {frames.requests.map((arrow) => (
        <button key={arrow.seq} type="button" data-seq={arrow.seq} data-testid="inspect-call-frame" data-direction="c2s" onClick={() => onInspect(arrow.seq)}>
          {t('transcript.inspectRequest', { id: String(arrow.id) })}
        </button>
      ))}
      {frames.responses.map((arrow) => (
        <button key={arrow.seq} type="button" data-seq={arrow.seq} data-testid="inspect-call-frame" data-direction="s2c" onClick={() => onInspect(arrow.seq)}>
          {t(arrow.kind === 'error-response' ? 'transcript.inspectError' : 'transcript.inspectResponse', { id: String(arrow.id) })}
        </button>
      ))}
      {frames.requests.length > 0 && frames.responses.length === 0 && window.endSeq === null && <span className="hint">{t('transcript.waitingFrames')}</span>}
      {all.length > 0 && (
        <button type="button" className="link-button" data-testid="show-in-diagram" onClick={() => onShowInDiagram(window.call)}>
          {t('transcript.showInDiagram')}
        </button>
      )}
    </div>
  );
}
