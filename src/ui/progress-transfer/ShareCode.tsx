import { useCallback, useEffect, useRef, useState } from 'react';
import { encodeShareHash, shareUrl } from '../../exercise/share-link.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { copyText } from '../../app/progress-transfer/browser-file.ts';
import { useTransferText } from './use-transfer-text.ts';
import './progress-transfer.css';

export type ShareState =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'made'; url: string; copied: boolean }
  | { kind: 'too-large'; size: number; limit: number };

export interface ShareCodeControls {
  state: ShareState;
  share(): void;
  close(): void;
}

/**
 * "Share code" for one exercise: a link carrying the code the editor shows, copied to the
 * clipboard and also shown in a box, since the clipboard can be refused. The button sits in the
 * toolbar and the result below it, so the hook holds the state both render.
 */
export function useShareCode(exerciseId: string): ShareCodeControls {
  const exercises = useExercises();
  const [state, setState] = useState<ShareState>({ kind: 'idle' });
  // Another exercise opened: a link made for the previous one must not look like this one's.
  useEffect(() => setState({ kind: 'idle' }), [exerciseId]);
  const share = useCallback(() => {
    setState({ kind: 'working' });
    void (async () => {
      const outcome = await encodeShareHash({ exerciseId, code: exercises.codeOf(exerciseId) });
      if (!outcome.ok) {
        const problem = outcome.problem;
        setState(problem.reason === 'too-large' ? { kind: 'too-large', size: problem.size, limit: problem.limit } : { kind: 'idle' });
        return;
      }
      const url = shareUrl(window.location, outcome.hash);
      setState({ kind: 'made', url, copied: await copyText(url) });
    })();
  }, [exercises, exerciseId]);
  const close = useCallback(() => setState({ kind: 'idle' }), []);
  return { state, share, close };
}

export function ShareCodeButton({ controls }: { controls: ShareCodeControls }) {
  const t = useTransferText();
  return (
    <button type="button" onClick={controls.share} disabled={controls.state.kind === 'working'} title={t('share.title')} data-testid="share-code">
      {t('share.button')}
    </button>
  );
}

/** The link (selected, ready to copy by hand), what happened to the clipboard, or why no link. */
export function ShareResult({ controls }: { controls: ShareCodeControls }) {
  const t = useTransferText();
  const { state } = controls;
  const linkInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state.kind === 'made' && !state.copied) linkInput.current?.select();
  }, [state]);
  // One live region that stays mounted, so screen readers announce what appears in it.
  return (
    <div className="share-result" aria-live="polite" data-testid="share-result">
      {state.kind === 'working' && <p className="hint">{t('share.working')}</p>}
      {state.kind === 'too-large' && (
        <p className="notice is-warning" role="alert" data-testid="share-too-large">
          {t('share.tooLarge', { size: state.size, limit: state.limit })}
        </p>
      )}
      {state.kind === 'made' && (
        <>
          <p className="hint" data-testid="share-status">
            {state.copied ? t('share.copied', { count: state.url.length }) : t('share.copyFailed')}
          </p>
          <div className="share-result__row">
            <input ref={linkInput} type="text" readOnly value={state.url} aria-label={t('share.linkLabel')} data-testid="share-link" onFocus={(event) => event.target.select()} />
            <button type="button" onClick={controls.close}>
              {t('share.close')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
