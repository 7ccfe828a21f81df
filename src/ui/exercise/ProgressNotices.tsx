import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useExercises } from '../hooks/exercise-context.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { ShareLinkNotice } from '../progress-transfer/ShareLinkNotice.tsx';

/** What the progress store had to do with saved data (set aside, converted, not saved), and a share link that could not open; dismissible. */
export function ProgressNotices() {
  const { t } = useTranslation('exercise');
  const exercises = useExercises();
  const notices = useStoreSelector(exercises.progress, (state) => state.notices);
  const [problemsDismissed, setProblemsDismissed] = useState(false);
  const shareProblem = useStoreSelector(exercises, (state) => state.shareProblem);
  const problems = exercises.problems;
  if (notices.length === 0 && shareProblem === null && (problems.length === 0 || problemsDismissed)) return null;
  return (
    <div className="progress-notices" data-testid="progress-notices">
      <ShareLinkNotice />
      {notices.map((notice) => (
        <div key={notice.kind} className="notice is-warning progress-notice" role="alert">
          <span>{t(`notices.${notice.kind}`)}</span>
          <button type="button" onClick={() => exercises.progress.dismissNotice(notice.kind)}>
            {t('notices.dismiss')}
          </button>
        </div>
      ))}
      {problems.length > 0 && !problemsDismissed && (
        <div className="notice is-warning progress-notice" role="alert">
          <span>{t('exercises.problems', { list: problems.join('; ') })}</span>
          <button type="button" onClick={() => setProblemsDismissed(true)}>
            {t('notices.dismiss')}
          </button>
        </div>
      )}
    </div>
  );
}
