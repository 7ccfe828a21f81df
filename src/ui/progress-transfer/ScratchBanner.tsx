import { useState } from 'react';
import type { Exercise } from '../../exercise/types.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { useExercises } from '../hooks/exercise-context.ts';
import { clearAddressHash } from '../../app/progress-transfer/browser-file.ts';
import { lineCount } from '../../app/progress-transfer/messages.ts';
import { useTransferText } from './use-transfer-text.ts';
import './progress-transfer.css';

/**
 * Above the editor while it shows shared code: says so, and offers the two ways out. Keeping the
 * shared code replaces the learner's own, so it asks first and says how much is replaced.
 */
export function ScratchBanner({ exercise }: { exercise: Exercise }) {
  const t = useTransferText();
  const exercises = useExercises();
  const [confirming, setConfirming] = useState(false);
  const id = exercise.meta.id;
  const file = exercise.meta.learnerFile;
  const ownIsStarter = exercises.progress.get(id).code === undefined;
  const body = ownIsStarter
    ? t('scratch.confirmBodyStarter', { file, theirs: lineCount(exercises.codeOf(id)) })
    : t('scratch.confirmBody', { file, mine: lineCount(exercises.ownCodeOf(id)), theirs: lineCount(exercises.codeOf(id)) });

  return (
    <div className="scratch-banner" role="region" aria-label={t('scratch.banner')} data-testid="scratch-banner">
      <div className="scratch-banner__text">
        <p>
          <strong>{t('scratch.banner')}</strong>
        </p>
        <p className="hint">{t('scratch.detail')}</p>
      </div>
      <button
        type="button"
        onClick={() => {
          exercises.leaveScratch();
          clearAddressHash();
        }}
        data-testid="scratch-back"
      >
        {t('scratch.back')}
      </button>
      <button type="button" onClick={() => setConfirming(true)} data-testid="scratch-keep">
        {t('scratch.keep')}
      </button>
      <ConfirmDialog
        open={confirming}
        title={t('scratch.confirmTitle')}
        body={body}
        confirmLabel={t('scratch.confirm')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          exercises.keepScratch();
          clearAddressHash();
        }}
      />
    </div>
  );
}
