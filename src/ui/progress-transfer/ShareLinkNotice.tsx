import { useExercises } from '../hooks/exercise-context.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { linkProblemText } from '../../app/progress-transfer/messages.ts';
import { useTransferText } from './use-transfer-text.ts';

/** Why a share link in the address did not open; the normal view is showing. */
export function ShareLinkNotice() {
  const t = useTransferText();
  const exercises = useExercises();
  const problem = useStoreSelector(exercises, (state) => state.shareProblem);
  if (!problem) return null;
  return (
    <div className="notice is-warning progress-notice" role="alert" data-testid="share-link-problem">
      <span>{linkProblemText(t, problem)}</span>
      <button type="button" onClick={() => exercises.dismissShareProblem()}>
        {t('linkProblems.dismiss')}
      </button>
    </div>
  );
}
