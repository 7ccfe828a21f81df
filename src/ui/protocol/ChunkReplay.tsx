// Replay a frame's chunks through a reader, one push at a time: the reference reader on the page,
// or the learner's exercise 2 reader in a worker. After each push: what it holds, what it emitted.

import { useEffect, useState } from 'react';
import { getFraming } from '../../protocol/framing/index.ts';
import { heldBytes, replayChunks, type ReplayItem, type ReplayStep } from '../../protocol/inspect/chunk-replay.ts';
import { formatBytes } from '../../protocol/inspect/hex-rows.ts';
import type { InspectTarget } from '../../app/protocol/inspect-target.ts';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import type { ProtocolText } from '../../app/protocol/text.ts';
import { useProtocolText } from './use-protocol-text.ts';

type Replay = { who: 'reference' | 'learner'; steps: ReplayStep[] } | { who: 'learner'; error: string } | { who: 'learner'; running: true };
const PREVIEW_BYTES = 24;

export function ChunkReplay({ target, title }: { target: InspectTarget; title: string }) {
  const t = useProtocolText();
  const services = useProtocolServices();
  const [who, setWho] = useState<'reference' | 'learner'>('reference');
  const [replay, setReplay] = useState<Replay | null>(null);
  const [shown, setShown] = useState(1);

  const run = async (reader: 'reference' | 'learner') => {
    setShown(1);
    if (reader === 'reference') {
      setReplay({ who: 'reference', steps: replayChunks(() => getFraming(target.framing).createReader(), target.replay) });
      return;
    }
    setReplay({ who: 'learner', running: true });
    const result = await services.learnerReader(target.framing, target.replay);
    setReplay(result.ok ? { who: 'learner', steps: result.steps } : { who: 'learner', error: `${result.error.name}: ${result.error.message}` });
  };

  // The reference replay costs nothing: show it at once.
  useEffect(() => {
    setShown(1);
    setReplay({ who: 'reference', steps: replayChunks(() => getFraming(target.framing).createReader(), target.replay) });
  }, [target]);

  const steps = replay && 'steps' in replay ? replay.steps : null;
  const total = steps?.length ?? 0;

  return (
    <section className="chunk-replay" aria-label={t('replay.heading')} data-testid="chunk-replay">
      <h4>{t('replay.heading')}</h4>
      <p className="hint">{t('replay.intro')}</p>
      <div className="chunk-replay__controls">
        <fieldset className="inline-radios">
          <legend>{t('replay.reader')}</legend>
          {(['reference', 'learner'] as const).map((reader) => (
            <label key={reader}>
              <input type="radio" name={`replay-reader-${title}`} checked={who === reader} onChange={() => setWho(reader)} />
              {t(`replay.${reader}`)}
            </label>
          ))}
        </fieldset>
        <button type="button" className="primary" onClick={() => void run(who)}>
          {t('replay.run')}
        </button>
        {steps && (
          <>
            <button type="button" disabled={shown <= 1} onClick={() => setShown(shown - 1)}>
              {t('replay.previous')}
            </button>
            <button type="button" disabled={shown >= total} onClick={() => setShown(shown + 1)}>
              {t('replay.next')}
            </button>
            <button type="button" disabled={shown >= total} onClick={() => setShown(total)}>
              {t('replay.all')}
            </button>
            <span className="hint" aria-live="polite">
              {t('replay.position', { n: Math.min(shown, total), total })} · {t(replay!.who === 'learner' ? 'replay.learner' : 'replay.reference')}
            </span>
          </>
        )}
      </div>
      {replay && 'running' in replay && <p className="hint">{t('replay.running')}</p>}
      {replay && 'error' in replay && <p className="notice is-error">{t('replay.failed', { error: replay.error })}</p>}
      {steps && (
        <ol className="chunk-replay__steps" data-testid="replay-steps">
          {steps.slice(0, shown).map((step) => (
            <li key={step.push} className={step.error ? 'is-error' : undefined}>
              <div className="mono">
                <strong>{t('replay.push', { n: step.push + 1, count: step.bytes.length })}</strong> {preview(step.bytes)}
              </div>
              <div>
                {step.bufferedBytes === null ? t('replay.holdsUnknown') : t('replay.holds', { count: step.bufferedBytes })}
                {step.bufferedBytes ? <span className="mono held"> {JSON.stringify(new TextDecoder().decode(heldBytes(target.replay, step.push, step.bufferedBytes)).slice(0, 60))}</span> : null}
              </div>
              <div>
                {t('replay.emitted')} {step.items.length === 0 && !step.error ? <span className="hint">{t('replay.nothing')}</span> : null}
                {step.items.map((item, i) => (
                  <span key={i} className={`chip${item.type === 'message' ? '' : ' chip--error'}`}>
                    {itemText(t, item)}
                  </span>
                ))}
                {step.error && <span className="chip chip--error">{t('replay.threw', { error: step.error })}</span>}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function preview(bytes: Uint8Array): string {
  const shown = formatBytes(bytes.subarray(0, PREVIEW_BYTES), 'hex');
  return bytes.length > PREVIEW_BYTES ? `${shown} …` : shown;
}

function itemText(t: ProtocolText, item: ReplayItem): string {
  if (item.type === 'error') return t('replay.error', { kind: item.kind, detail: item.detail });
  if (item.type === 'malformed') return t('replay.malformed', { detail: item.detail });
  const value = item.value as { method?: unknown; id?: unknown } | null;
  const summary = value && typeof value === 'object' ? [typeof value.method === 'string' ? value.method : 'response', value.id === undefined ? '' : `#${JSON.stringify(value.id)}`].join(' ').trim() : JSON.stringify(item.value);
  return t('replay.message', { summary });
}
