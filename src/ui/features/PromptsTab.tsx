// Prompts: list them, fill one's arguments, prompts/get, and read the messages the server made.

import { useId, useState } from 'react';
import type { PromptRow } from '../../app/features/features-store.ts';
import type { TabProps } from './FeaturesPanel.tsx';
import { useFeaturesText } from './use-features-text.ts';

export function PromptsTab({ store, state, disabled }: TabProps) {
  const t = useFeaturesText();
  const { list, result } = state.prompts;
  return (
    <div className="features-tab">
      <p className="hint">{t('prompts.intro')}</p>
      <div className="button-row">
        <button type="button" disabled={disabled} onClick={() => void store.listPrompts()} data-testid="prompts-list">
          {t('prompts.list')}
        </button>
      </div>
      {list.map((prompt) => (
        <PromptForm key={prompt.name} prompt={prompt} disabled={disabled} onGet={(args) => void store.getPrompt(prompt.name, args)} />
      ))}
      {result !== null && (
        <>
          <p className="features-exchanges__label">{t('prompts.result')}</p>
          <ol className="features-list" data-testid="prompts-result">
            {result.messages.map((message, index) => (
              <li key={index}>{t('prompts.message', { role: message.role, text: message.text })}</li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

function PromptForm({ prompt, disabled, onGet }: { prompt: PromptRow; disabled: boolean; onGet(args: Record<string, string>): void }) {
  const t = useFeaturesText();
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <form
      className="features-form"
      data-testid={`prompt-${prompt.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        onGet(values);
      }}
    >
      <p>
        <span className="mono">{prompt.name}</span> {prompt.description}
      </p>
      {prompt.arguments.map((argument) => (
        <div className="field" key={argument.name}>
          <label htmlFor={`${id}-${argument.name}`}>
            <span className="mono">{argument.name}</span>
            {argument.required === true && ` (${t('prompts.required')})`}
          </label>
          <input id={`${id}-${argument.name}`} value={values[argument.name] ?? ''} onChange={(event) => setValues({ ...values, [argument.name]: event.target.value })} data-testid={`prompt-arg-${argument.name}`} />
          {argument.description && <p className="hint">{argument.description}</p>}
        </div>
      ))}
      <button type="submit" disabled={disabled} data-testid={`prompt-get-${prompt.name}`}>
        {t('prompts.get', { name: prompt.name })}
      </button>
    </form>
  );
}
