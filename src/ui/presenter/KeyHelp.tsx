// The list of presenter keys, shown with `?`. Not a modal: the keys keep working while it is open.

import { useId } from 'react';
import { KEY_HELP } from '../../app/presenter/key-map.ts';
import { usePresenterText } from './use-presenter-text.ts';

export function KeyHelp() {
  const t = usePresenterText();
  const headingId = useId();
  return (
    <section className="presenter-help" aria-labelledby={headingId} data-testid="key-help">
      <h2 id={headingId}>{t('help.heading')}</h2>
      <dl>
        {KEY_HELP.map(({ keys, command }) => (
          <div key={command}>
            <dt>
              {keys.map((key, index) => (
                <span key={key}>
                  {index > 0 && ' / '}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{t(`help.commands.${command}`)}</dd>
          </div>
        ))}
      </dl>
      <p className="hint">{t('help.tab')}</p>
      <p className="hint">{t('help.close')}</p>
    </section>
  );
}
