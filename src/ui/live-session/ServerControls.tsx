import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { STDIO_FAULT_NAMES } from '../../protocol/faults.ts';
import { FRAMING_NAMES, type FramingName } from '../../protocol/framing/types.ts';
import { useStore } from '../hooks/use-store.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import { serverStatusIsError, serverStatusText } from '../../app/live-session/server-status-text.ts';

const FRAMING_LABEL_KEY = { 'content-length': 'server.framingContentLength', ndjson: 'server.framingNdjson' } as const satisfies Record<FramingName, string>;

export function ServerControls() {
  const { t } = useTranslation('live');
  const session = useLiveSession();
  const state = useStore(session);
  const { server, framing, faults, era } = state;
  const framingId = useId();
  const busy = server.status === 'starting' || server.status === 'running';
  const hostReady = state.host.selection.status === 'chosen';

  return (
    <section className="panel-section server-controls" aria-labelledby="server-heading">
      <h3 id="server-heading">{t('server.heading')}</h3>
      <div className="field">
        <label htmlFor={framingId}>{t('server.framing')}</label>
        <select id={framingId} value={framing} disabled={busy} onChange={(event) => session.setFraming(event.target.value as FramingName)}>
          {FRAMING_NAMES.map((name) => (
            <option key={name} value={name}>
              {t(FRAMING_LABEL_KEY[name])}
            </option>
          ))}
        </select>
        <p className="hint">{t('server.framingNote')}</p>
      </div>
      <fieldset className="faults" disabled={busy}>
        <legend>{t('server.faults')}</legend>
        <p className="hint">{t('server.faultsNote')}</p>
        {STDIO_FAULT_NAMES.map((fault) => (
          <label key={fault} className="fault">
            <input type="checkbox" checked={faults.includes(fault)} onChange={(event) => session.setFault(fault, event.target.checked)} />
            <span>{t(`faults.${fault}`)}</span>
          </label>
        ))}
      </fieldset>
      {era !== 'dual' && (
        <p className="hint" data-testid="server-era-note">
          {t(era === 'legacy' ? 'server.eraLegacy' : 'server.eraModern')}{' '}
          <button type="button" className="link-button" disabled={busy} onClick={() => session.setEra('dual')}>
            {t('server.eraDual')}
          </button>
        </p>
      )}
      {busy && <p className="hint">{t('server.lockedWhileRunning')}</p>}
      <div className="button-row">
        <button type="button" className="primary" disabled={busy || !hostReady} onClick={() => void session.startServer()}>
          {t('server.start')}
        </button>
        <button type="button" disabled={!busy} onClick={() => void session.stopServer()}>
          {t('server.stop')}
        </button>
      </div>
      <p role="status" aria-live="polite" className={`server-status${serverStatusIsError(server) ? ' is-error' : ''}`} data-testid="server-status">
        {hostReady || server.status !== 'stopped' ? serverStatusText(t, server) : t('server.status.noHost')}
      </p>
    </section>
  );
}
