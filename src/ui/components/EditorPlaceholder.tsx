import { useTranslation } from 'react-i18next';

/** Holds the editor's place in the layout until the exercises bring it. */
export function EditorPlaceholder() {
  const { t } = useTranslation();
  return (
    <section className="pane editor-placeholder" aria-labelledby="editor-heading">
      <h2 id="editor-heading">{t('editor.heading')}</h2>
      <p className="editor-placeholder__note">{t('editor.placeholder')}</p>
    </section>
  );
}
