import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchExport, keepReading, readInstructorStream, sendEveryone } from '../../app/room/room-client.ts';
import { hasSteps, sceneOfStation, sceneStation, sendableStations } from '../../app/room/station.ts';
import { downloadText } from '../../app/progress-transfer/browser-file.ts';
import { sortForGrid } from '../../app/room/stuck.ts';
import { ROOM_EXERCISES, type RoomAttendeeView, type RoomSnapshot } from '../../runtime/room-messages.ts';
import { QrCode } from './QrCode.tsx';
import { HelpQueue } from './HelpQueue.tsx';
import { minutesText, stationText } from './station-text.ts';

export interface InstructorAccess {
  key: string;
  code: string;
  joinUrls: string[];
}

// uPlot loads when the instructor first opens the chart.
const ProgressChart = lazy(() => import('./ProgressChart.tsx'));

const EXERCISES = Array.from({ length: ROOM_EXERCISES }, (_, index) => index + 1);
const DEFAULT_STUCK_MINUTES = 10;
const STATIONS = sendableStations(ROOM_EXERCISES);

/** The instructor's room: how to join (code, link, QR code) and the live grid of the class. */
export function InstructorRoom({ access }: { access: InstructorAccess }) {
  const { t } = useTranslation('room');
  const [snapshot, setSnapshot] = useState<RoomSnapshot | null>(null);
  const [live, setLive] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [stuckMinutes, setStuckMinutes] = useState(DEFAULT_STUCK_MINUTES);
  const stuckId = useId();
  const [exportProblem, setExportProblem] = useState<string | null>(null);
  const [chartOpen, setChartOpen] = useState(false);
  const sendId = useId();
  const [sendTo, setSendTo] = useState('exercise-1');
  const stepId = useId();
  const [sendStep, setSendStep] = useState(0);
  const sendScene = sceneOfStation(sendTo)?.scene ?? null;
  const [sendStatus, setSendStatus] = useState<{ error: boolean; text: string } | null>(null);
  const send = async () => {
    try {
      // A stdio scene goes at the chosen step; 0 opens it before the first.
      const station = sendScene !== null && hasSteps(sendScene) && sendStep > 0 ? sceneStation(sendScene, sendStep) : sendTo;
      const reached = await sendEveryone(access.key, station, { origin: window.location.origin });
      setSendStatus({ error: false, text: t('send.sent', { count: reached }) });
    } catch (error) {
      setSendStatus({ error: true, text: t('send.failed', { detail: error instanceof Error ? error.message : String(error) }) });
    }
  };
  const download = async (kind: 'csv' | 'json') => {
    setExportProblem(null);
    try {
      const file = await fetchExport(access.key, kind, { origin: window.location.origin });
      downloadText(file.fileName, file.text, file.type);
    } catch (error) {
      setExportProblem(t('instructor.exportFailed', { detail: error instanceof Error ? error.message : String(error) }));
    }
  };

  useEffect(() => {
    const stop = new AbortController();
    // The bridge restarted or the stream dropped: show it, and reconnect.
    void keepReading(
      stop.signal,
      async (signal) => {
        try {
          await readInstructorStream(access.key, { origin: window.location.origin }, (next) => {
            setSnapshot(next);
            setLive(true);
          }, signal);
        } finally {
          if (!signal.aborted) setLive(false);
        }
        return 'again';
      },
      10_000,
    );
    return () => stop.abort();
  }, [access.key]);

  // "On it for" and "stuck" move with the clock, not only with reports.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);

  const shownCode = `${access.code.slice(0, 3)}-${access.code.slice(3)}`;
  const rows = snapshot === null ? [] : sortForGrid(snapshot.attendees, now, stuckMinutes);
  const connected = snapshot?.attendees.filter((attendee) => attendee.connected).length ?? 0;
  return (
    <div className="room__instructor">
      <div className="room__join-panel">
        <div>
          <p className="room__code-label">{t('instructor.codeLabel')}</p>
          <p className="room__code" aria-label={t('instructor.codeAria', { code: access.code.split('').join(' ') })}>
            {shownCode}
          </p>
          {access.joinUrls.length === 0 ? (
            <p className="hint">{t('instructor.noLan')}</p>
          ) : (
            <p>
              {t('instructor.open')}{' '}
              {access.joinUrls.map((url) => (
                <code key={url} className="room__url">
                  {url}
                </code>
              ))}
            </p>
          )}
        </div>
        {access.joinUrls[0] !== undefined && <QrCode text={`${access.joinUrls[0]}=${access.code}`} label={t('instructor.qr', { url: access.joinUrls[0] })} />}
      </div>

      <LeadPanel code={access.code} joinUrl={access.joinUrls[0] ?? null} followers={snapshot?.followers ?? 0} />

      <div className="room__grid-bar">
        <p role="status">
          {live ? t('instructor.live', { joined: snapshot?.attendees.length ?? 0, connected, reports: snapshot?.reports ?? 0 }) : t('instructor.reconnecting')}
        </p>
        <label htmlFor={stuckId}>{t('instructor.stuckAfter')}</label>
        <input
          id={stuckId}
          type="number"
          min={1}
          max={120}
          value={stuckMinutes}
          onChange={(event) => setStuckMinutes(Math.min(120, Math.max(1, Number(event.target.value) || DEFAULT_STUCK_MINUTES)))}
        />
        <button type="button" onClick={() => void download('csv')}>
          {t('instructor.exportCsv')}
        </button>
        <button type="button" onClick={() => void download('json')}>
          {t('instructor.exportJson')}
        </button>
      </div>
      <form
        className="room__send"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label htmlFor={sendId}>{t('send.label')}</label>
        <select id={sendId} value={sendTo} onChange={(event) => setSendTo(event.target.value)}>
          {STATIONS.map((station) => (
            <option key={station} value={station}>
              {stationText(t, station)}
            </option>
          ))}
        </select>
        {sendScene !== null && hasSteps(sendScene) && (
          <>
            <label htmlFor={stepId}>{t('send.step')}</label>
            <input id={stepId} type="number" min={0} max={99} value={sendStep} title={t('send.stepHint')} onChange={(event) => setSendStep(Math.min(99, Math.max(0, Math.floor(Number(event.target.value)) || 0)))} />
          </>
        )}
        <button type="submit">{t('send.submit')}</button>
        <span role="status" className={sendStatus?.error ? 'is-error' : undefined}>
          {sendStatus?.text ?? ''}
        </span>
      </form>
      {exportProblem !== null && (
        <p className="is-error" role="alert">
          {exportProblem}
        </p>
      )}

      <HelpQueue roomKey={access.key} items={snapshot?.help ?? []} now={now} />

      <details className="room__chart-box" onToggle={(event) => setChartOpen(event.currentTarget.open)}>
        <summary>{t('chart.heading')}</summary>
        {chartOpen && (
          <Suspense fallback={<p className="hint">{t('chart.loading')}</p>}>
            <ProgressChart roomKey={access.key} version={`${snapshot?.reports ?? 0}/${snapshot?.attendees.length ?? 0}`} />
          </Suspense>
        )}
      </details>

      {rows.length === 0 ? (
        <p className="hint">{t('instructor.empty')}</p>
      ) : (
        <div className="room__grid-scroll">
          <table className="room__grid">
            <caption className="visually-hidden">{t('grid.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('grid.name')}</th>
                <th scope="col">{t('grid.station')}</th>
                <th scope="col">{t('grid.since')}</th>
                {EXERCISES.map((exercise) => (
                  <th scope="col" key={exercise}>
                    {t('grid.exercise', { exercise })}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(({ attendee, stuck }) => (
                <tr key={attendee.attendee} className={stuck ? 'is-stuck' : undefined}>
                  <th scope="row">
                    <span className="room__name">{attendee.name}</span>
                    {stuck && <span className="room__flag room__flag--stuck">{t('grid.stuck')}</span>}
                    {!attendee.connected && <span className="room__flag">{t('grid.away')}</span>}
                    {attendee.following && <span className="room__flag">{t('grid.following')}</span>}
                  </th>
                  <td>{stationText(t, attendee.station)}</td>
                  <td>{attendee.stationSince === null ? '–' : minutesText(t, now - attendee.stationSince)}</td>
                  {EXERCISES.map((exercise) => (
                    <ExerciseCell key={exercise} progress={attendee.exercises[String(exercise)]} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/**
 * Follow mode across devices: the presenter view on this machine posts its stage to the room, and
 * any device with the follow link (it carries the join code) or a joined attendee's "Follow the
 * presenter" shows it.
 */
function LeadPanel({ code, joinUrl, followers }: { code: string; joinUrl: string | null; followers: number }) {
  const { t } = useTranslation('room');
  const here = new URL(window.location.href);
  const presenter = new URL('/', here);
  presenter.search = here.search;
  presenter.searchParams.set('presenter', '1');
  // The follow link is for other devices: the LAN address attendees use, with the code in it.
  const follow = new URL('/', joinUrl ?? here);
  follow.search = '?presenter=1&follow=1';
  follow.hash = `join=${code}`;
  return (
    <section className="room__lead" aria-label={t('lead.heading')}>
      <p>
        <a href={presenter.toString()} target="_blank" rel="noopener">
          {t('lead.presenter')}
        </a>{' '}
        <span className="hint">{t('lead.presenterHint')}</span>
      </p>
      <p>
        {t('lead.followLink')} <code className="room__follow-url" data-testid="room-follow-link">{follow.toString()}</code>{' '}
        <span role="status">{t('lead.followers', { count: followers })}</span>
      </p>
    </section>
  );
}

function ExerciseCell({ progress }: { progress: RoomAttendeeView['exercises'][string] | undefined }) {
  const { t } = useTranslation('room');
  if (progress === undefined) return <td className="room__cell">–</td>;
  const done = progress.total > 0 && progress.passed === progress.total;
  return (
    <td className={done ? 'room__cell is-done' : 'room__cell'}>
      {progress.total > 0 ? t('grid.tests', { passed: progress.passed, total: progress.total }) : '–'}
      {done && ' ✓'}
      {progress.hints > 0 && <span className="room__badge">{t('grid.hints', { count: progress.hints })}</span>}
      {progress.referenceUsed && <span className="room__badge">{t('grid.reference')}</span>}
    </td>
  );
}
