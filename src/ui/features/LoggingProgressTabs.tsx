// Logging (set the level, run the tool, see which of its five messages still arrive) and Progress
// (a bar driven by notifications/progress on the call's own SSE stream).

import { useId, useState } from 'react';
import { DEMO_LOG_LEVELS } from '../../protocol/features/demo-server.ts';
import { LOG_LEVELS, type LogLevel } from '../../app/features/features-store.ts';
import type { TabProps } from './FeaturesPanel.tsx';
import { useFeaturesText } from './use-features-text.ts';

export function LoggingTab({ store, state, disabled }: TabProps) {
  const t = useFeaturesText();
  const id = useId();
  const [level, setLevel] = useState<LogLevel>('warning');
  const { logging } = state;
  const runs = Array.from({ length: logging.runs }, (_, index) => index + 1);
  return (
    <div className="features-tab">
      <p className="hint">{t('logging.intro')}</p>
      <div className="field features-inline">
        <label htmlFor={id}>{t('logging.level')}</label>
        <select id={id} value={level} onChange={(event) => setLevel(event.target.value as LogLevel)} data-testid="logging-level">
          {LOG_LEVELS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <button type="button" disabled={disabled} onClick={() => void store.setLogLevel(level)} data-testid="logging-set">
          {t('logging.setLevel')}
        </button>
      </div>
      <p data-testid="logging-current">{logging.level === null ? t('logging.notSet') : t('logging.current', { level: logging.level })}</p>
      <div className="button-row">
        <button type="button" disabled={disabled} onClick={() => void store.runLogTool()} data-testid="logging-run">
          {t('logging.run')}
        </button>
      </div>
      {runs.length === 0 && <p className="hint">{t('logging.none')}</p>}
      {runs.map((run) => {
        const arrived = logging.messages.filter((row) => row.run === run);
        return (
          <div key={run} className="features-run" data-testid="logging-run-result" data-run={run}>
            <p className="features-exchanges__label">{t('logging.runHeading', { run })}</p>
            <ul className="features-levels">
              {DEMO_LOG_LEVELS.map((name) => {
                const message = arrived.find((row) => row.level === name);
                return (
                  <li key={name} className={message ? 'is-arrived' : 'is-filtered'} data-level={name} data-arrived={message ? 'yes' : 'no'}>
                    <span className="mono">{name}</span> {message ? `${t('logging.arrived')}: ${message.data}` : t('logging.filtered')}
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

export function ProgressTab({ store, state, disabled }: TabProps) {
  const t = useFeaturesText();
  const id = useId();
  const { progress, progressResult } = state;
  return (
    <div className="features-tab">
      <p className="hint">{t('progress.intro')}</p>
      <div className="button-row">
        <button type="button" disabled={disabled} onClick={() => void store.runSlowTask()} data-testid="progress-run">
          {t('progress.run')}
        </button>
      </div>
      {progress === null ? (
        <p className="hint">{t('progress.none')}</p>
      ) : (
        <div className="features-progress">
          <label htmlFor={id}>{t('progress.label')}</label>
          <progress id={id} max={progress.total ?? 1} value={progress.progress} data-testid="progress-bar" />
          <p data-testid="progress-text">
            {t('progress.value', { progress: progress.progress, total: progress.total ?? '?' })}
            {progress.message !== null && ` · ${progress.message}`}
          </p>
        </div>
      )}
      {progressResult !== null && <p data-testid="progress-result">{t('progress.result', { text: progressResult })}</p>}
    </div>
  );
}
