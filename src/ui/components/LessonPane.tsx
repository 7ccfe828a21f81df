import { useTranslation } from 'react-i18next';

const EXERCISE_KEYS = ['lesson.exercise1', 'lesson.exercise2', 'lesson.exercise3', 'lesson.exercise4', 'lesson.exercise5'] as const;

export function LessonPane() {
  const { t } = useTranslation();
  return (
    <section className="pane lesson-pane" aria-labelledby="lesson-heading">
      <h2 id="lesson-heading">{t('lesson.heading')}</h2>
      <p>{t('lesson.intro')}</p>
      <h3>{t('lesson.exercisesHeading')}</h3>
      <ol className="lesson-pane__exercises">
        {EXERCISE_KEYS.map((key) => (
          <li key={key}>{t(key)}</li>
        ))}
      </ol>
      <h3>{t('lesson.framingHeading')}</h3>
      <p>{t('lesson.framingFact')}</p>
      <h3>{t('lesson.panelHeading')}</h3>
      <p>{t('lesson.panelText')}</p>
    </section>
  );
}
