// The class's progress over time, on the instructor's room view: how many have joined, and how many
// have completed each exercise, since the room opened. Drawn with uPlot (a small canvas charting
// library), loaded only when the instructor opens the chart; the numbers now are in a table below
// it, so the chart is never the only way to read them.

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { fetchProgress } from '../../app/room/room-client.ts';
import type { RoomProgress } from '../../runtime/room-messages.ts';

/** One colour per exercise, from the Okabe–Ito palette (told apart with colour blindness too). */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#56B4E9', '#CC79A7', '#000000'];
const HEIGHT = 260;
/** A new fetch at most this often while reports come in. */
const REFRESH_MS = 2_000;

export default function ProgressChart({ roomKey, version }: { roomKey: string; version: string }) {
  const { t, i18n } = useTranslation('room');
  const [progress, setProgress] = useState<RoomProgress | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);

  // Fetched when the chart opens, then every 2 s while reports arrive (`version` moved since the
  // last fetch): a throttle, not a debounce, so a class that never stops reporting still updates.
  const wanted = useRef(version);
  wanted.current = version;
  useEffect(() => {
    let stale = false;
    let fetched: string | null = null;
    let busy = false;
    const refresh = () => {
      if (busy || fetched === wanted.current) return;
      const asked = wanted.current;
      busy = true;
      fetchProgress(roomKey, { origin: window.location.origin })
        .then((next) => {
          if (stale) return;
          fetched = asked;
          setProgress(next);
          setProblem(null);
        })
        .catch((error: unknown) => !stale && setProblem(error instanceof Error ? error.message : String(error)))
        .finally(() => {
          busy = false;
        });
    };
    refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => {
      stale = true;
      clearInterval(timer);
    };
  }, [roomKey]);

  useEffect(() => {
    const element = box.current;
    if (element === null || progress === null || progress.times.length === 0) return;
    const stepped = uPlot.paths.stepped!({ align: 1 });
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        scales: { x: { time: true }, y: { range: (_plot, _min, max) => [0, Math.max(1, max)] } },
        series: [
          { label: t('chart.time') },
          { label: t('chart.joined'), stroke: '#6b7280', dash: [6, 4], width: 2, paths: stepped, points: { show: false } },
          ...progress.completed.map((_, index) => ({ label: t('grid.exercise', { exercise: index + 1 }), stroke: COLOURS[index % COLOURS.length], width: 2, paths: stepped, points: { show: false } })),
        ],
        axes: [{}, { label: t('chart.attendees'), incrs: [1, 2, 5, 10, 20, 50, 100] }],
      },
      [progress.times.map((ms) => ms / 1000), progress.joined, ...progress.completed],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [progress, t, i18n.language]);

  if (problem !== null) return <p className="is-error">{t('chart.failed', { detail: problem })}</p>;
  if (progress === null) return <p className="hint">{t('chart.loading')}</p>;
  if (progress.times.length === 0) return <p className="hint">{t('instructor.empty')}</p>;
  const joined = progress.joined.at(-1) ?? 0;
  return (
    <figure className="room__chart">
      <div ref={box} className="room__chart-plot" role="img" aria-label={t('chart.label')} data-testid="progress-chart" />
      <figcaption>
        <table className="room__chart-now">
          <caption>{t('chart.now', { joined })}</caption>
          <thead>
            <tr>
              {progress.completed.map((_, index) => (
                <th scope="col" key={index}>
                  {t('grid.exercise', { exercise: index + 1 })}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              {progress.completed.map((line, index) => (
                <td key={index}>{t('chart.completed', { done: line.at(-1) ?? 0, joined })}</td>
              ))}
            </tr>
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
