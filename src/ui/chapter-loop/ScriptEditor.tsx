// The scripted turn as editable JSON: every keystroke is saved in this browser (even while the
// JSON is broken), problems are listed with their path, "Add a call to fail" offers the failing
// tool, and "Reset to default" asks first, because it throws the edits away.

import { useId, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import type { ScriptError } from '../../app/chapter-loop/agent-script.ts';
import { useAgentText } from './use-chapter-loop-text.ts';

export interface ScriptEditorProps {
  text: string;
  errors: readonly ScriptError[];
  saved: boolean;
  onChange(text: string): void;
  onAddFail(): void;
  onReset(): void;
}

export function ScriptEditor({ text, errors, saved, onChange, onAddFail, onReset }: ScriptEditorProps) {
  const t = useAgentText();
  const [confirming, setConfirming] = useState(false);
  const fieldId = useId();
  const errorsId = useId();
  return (
    <section className="agent-editor" aria-labelledby="agent-editor-heading">
      <h3 id="agent-editor-heading">{t('editor.heading')}</h3>
      <p className="hint">{t('editor.intro', { quote1: '{{1}}', quote2: '{{2}}' })}</p>
      <label htmlFor={fieldId} className="agent-editor__label">
        {t('editor.label')}
      </label>
      <textarea
        id={fieldId}
        className="mono agent-editor__text"
        value={text}
        spellCheck={false}
        rows={18}
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length > 0 ? errorsId : undefined}
        data-testid="script-editor"
        onChange={(event) => onChange(event.target.value)}
      />
      <div id={errorsId} aria-live="polite">
        {errors.length > 0 && (
          <div className="notice is-error" data-testid="script-errors">
            <p>{t('editor.invalid')}</p>
            <ul>
              {errors.map((error, index) => (
                <li key={index}>{t('editor.errorAt', { path: error.path || t('editor.wholeScript'), message: t(`editor.errors.${error.code}`, error.values) })}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <p className="hint" role="status">
        {saved ? t('editor.saved') : t('editor.notSaved')}
      </p>
      <div className="button-row">
        <button type="button" onClick={onAddFail} disabled={errors.length > 0}>
          {t('editor.addFail')}
        </button>
        <button type="button" onClick={() => setConfirming(true)}>
          {t('editor.reset')}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('editor.resetTitle')}
        body={t('editor.resetBody')}
        confirmLabel={t('editor.resetConfirm')}
        onConfirm={() => {
          setConfirming(false);
          onReset();
        }}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
