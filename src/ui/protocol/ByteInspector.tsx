// One frame down to its bytes: the hex dump with its fields, the counts that make "你好 is 6 bytes,
// not 2" visible, the chunks it arrived in, the decoded JSON linked to the bytes both ways, copy
// buttons, and the chunk replay.

import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { arrowLabel } from '../../app/protocol/arrow-text.ts';
import { FIELD_KINDS, fieldKindByByte, frameLayout, highlightOf, jsonByteRanges, pathKey, rangeAtByte, type JsonPath } from '../../protocol/inspect/byte-fields.ts';
import { ChunkReplay } from './ChunkReplay.tsx';
import { eraFields } from '../../protocol/inspect/era-fields.ts';
import { CopyBar } from './CopyBar.tsx';
import { FrameSaveBar } from './FrameSaveBar.tsx';
import { hexByte } from '../../protocol/inspect/hex-rows.ts';
import { HexView } from './HexView.tsx';
import type { InspectTarget } from '../../app/protocol/inspect-target.ts';
import { JsonTree } from './JsonTree.tsx';
import { useProtocolText } from './use-protocol-text.ts';
import { formatCodePoint, groupIndexByByte, nonAsciiRuns, utf8Groups } from '../../protocol/inspect/utf8-groups.ts';

// Only frames of the 2026-07-28 era need it (and its text): loaded on the first such frame.
const EraFields = lazy(() => import('./EraFields.tsx'));

export interface ByteInspectorProps {
  target: InspectTarget;
  /**
   * Offer the chunk replay (default). The presenter's follow view turns it off: it renders from
   * broadcast data alone, with no protocol services to run a learner's reader.
   */
  showReplay?: boolean;
}

export function ByteInspector({ target, showReplay = true }: ByteInspectorProps) {
  const t = useProtocolText();
  const cursorId = useId();
  const { bytes, framing } = target;
  const layout = useMemo(() => frameLayout(bytes, framing), [bytes, framing]);
  const groups = useMemo(() => utf8Groups(bytes), [bytes]);
  const body = layout.body;
  const bodyBytes = useMemo(() => (body ? bytes.subarray(body.start, body.end) : new Uint8Array(0)), [bytes, body]);
  const ranges = useMemo(() => (body && target.value !== null && target.kind !== 'unreadable' ? jsonByteRanges(target.value, bodyBytes, body.start) : null), [target.value, target.kind, body, bodyBytes]);
  const usedKinds = useMemo(() => FIELD_KINDS.filter((kind) => layout.fields.some((field) => field.kind === kind)), [layout]);

  const [treePath, setTreePath] = useState<JsonPath | null>(null);
  const [hoverByte, setHoverByte] = useState<number | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);

  const pointedByte = hoverByte ?? cursor;
  const byteRange = pointedByte !== null && ranges ? rangeAtByte(ranges, pointedByte) : undefined;
  const treeRange = treePath !== null && ranges ? ranges.find((range) => pathKey(range.path) === pathKey(treePath)) : undefined;
  const litRange = treeRange ?? byteRange;
  const highlight = litRange ? highlightOf(litRange) : null;
  const litPath = treePath ?? byteRange?.path ?? null;

  const kinds = useMemo(() => fieldKindByByte(bytes.length, layout.fields), [bytes, layout]);
  const byGroup = useMemo(() => groupIndexByByte(bytes.length, groups), [bytes, groups]);
  const bodyText = useMemo(() => new TextDecoder().decode(bodyBytes), [bodyBytes]);
  const runs = useMemo(() => nonAsciiRuns(bytes, groups), [bytes, groups]);

  const what = arrowLabel(t, target);
  const cursorText = (() => {
    if (pointedByte === null) return t('inspector.cursorHint');
    const parts = [t('inspector.cursor', { index: pointedByte, hex: hexByte(bytes[pointedByte] ?? 0), field: t(`inspector.fields.${kinds[pointedByte] ?? 'junk'}`) })];
    const group = byGroup[pointedByte];
    if (group) parts.push(t('inspector.cursorChar', { char: group.char, codePoint: formatCodePoint(group.codePoint) }));
    if (byteRange) parts.push(t('inspector.cursorPath', { path: formatPath(byteRange.path) }));
    return parts.join(' · ');
  })();

  return (
    <div className="byte-inspector" data-testid="byte-inspector">
      <p className="hint">
        {t(`inspector.direction.${target.direction}`)} · {t('inspector.size', { count: bytes.length, offset: target.streamOffset })} · {framing === 'ndjson' ? 'NDJSON' : 'Content-Length'}
      </p>
      <div className="byte-inspector__columns">
        <div className="byte-inspector__bytes">
          <FieldLegend kinds={usedKinds} />
          <HexView
            bytes={bytes}
            fields={layout.fields}
            groups={groups}
            chunks={target.chunks}
            highlight={highlight}
            cursor={cursor}
            label={t('inspector.hexLabel')}
            offsetLabel={t('inspector.offset')}
            describedBy={cursorId}
            chunkMarkerLabel={(n) => t('inspector.chunkMarker', { n })}
            onHoverByte={(index) => {
              setHoverByte(index);
              if (index !== null) setTreePath(null);
            }}
            onCursor={(index) => {
              setCursor(index);
              setTreePath(null);
            }}
          />
          <p id={cursorId} className="byte-inspector__cursor hint" aria-live="polite" data-testid="byte-cursor">
            {cursorText}
          </p>
          <section aria-label={t('inspector.chunks')} className="byte-inspector__chunks" data-testid="chunk-list">
            <h4>{t('inspector.chunks')}</h4>
            {target.chunks.length <= 1 ? (
              <p className="hint">{t('inspector.oneChunk')}</p>
            ) : null}
            <ol>
              {target.chunks.map((span) => (
                <li key={span.index} data-chunk-start={span.start} data-chunk-length={span.end - span.start} data-chunk-size={span.chunkLength}>
                  {t('inspector.chunk', { n: span.index + 1, start: span.start, end: span.end - 1, count: span.end - span.start })}
                  {span.chunkLength !== span.end - span.start && <span className="hint"> · {t('inspector.chunkShared', { count: span.chunkLength })}</span>}
                </li>
              ))}
            </ol>
          </section>
        </div>
        <div className="byte-inspector__meaning">
          <section className="byte-counts" aria-label={t('inspector.counts')} data-testid="byte-counts">
            <h4>{t('inspector.counts')}</h4>
            <dl>
              {framing === 'content-length' ? (
                <>
                  <dt>{t('inspector.declared')}</dt>
                  <dd className="mono">{layout.declaredLength ?? '—'}</dd>
                </>
              ) : null}
              <dt>{t('inspector.counted')}</dt>
              <dd className="mono">
                {bodyBytes.length}
                {framing === 'content-length' && layout.declaredLength !== null && (
                  <span className={layout.declaredLength === bodyBytes.length ? 'agree' : 'disagree'}> ({layout.declaredLength === bodyBytes.length ? `✓ ${t('inspector.agree')}` : `✗ ${t('inspector.disagree')}`})</span>
                )}
              </dd>
              <dt>{t('inspector.utf16')}</dt>
              <dd className="mono">
                {bodyText.length} <span className="hint">({t('inspector.utf16Note')})</span>
              </dd>
            </dl>
            {framing === 'ndjson' && <p className="hint">{t('inspector.ndjsonLength')}</p>}
          </section>
          <section aria-label={t('inspector.characters')} data-testid="multibyte">
            <h4>{t('inspector.characters')}</h4>
            {runs.length === 0 ? (
              <p className="hint">{t('inspector.allAscii')}</p>
            ) : (
              <ul className="multibyte-list">
                {runs.map((run) => (
                  <li key={run.start} data-run={run.text}>
                    <strong>{t('inspector.run', { text: run.text, bytes: run.byteLength, units: run.utf16Length })}</strong>
                    <ul>
                      {groups
                        .filter((group) => group.start >= run.start && group.start < run.end)
                        .map((group) => (
                          <li key={group.start} className="mono">
                            {t('inspector.char', { char: group.char, hex: Array.from(bytes.subarray(group.start, group.start + group.length), hexByte).join(' '), codePoint: formatCodePoint(group.codePoint) })}
                          </li>
                        ))}
                    </ul>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-label={t('inspector.tree')}>
            <h4>{t('inspector.tree')}</h4>
            {target.kind === 'unreadable' ? (
              <p className="notice">{t('inspector.unreadable', { problem: target.problem ?? '' })}</p>
            ) : (
              <>
                {target.kind === 'invalid' && <p className="notice">{t('inspector.invalid', { problem: target.problem ?? '' })}</p>}
                <p className="hint">{ranges ? t('inspector.treeHint') : t('inspector.noMapping')}</p>
                <JsonTree value={target.value} label={t('inspector.tree')} litPath={litPath} onHoverPath={(path) => setTreePath(path)} />
                {eraFields(target.value).length > 0 && (
                  <Suspense fallback={null}>
                    <EraFields value={target.value} litPath={litPath} onPath={setTreePath} />
                  </Suspense>
                )}
              </>
            )}
          </section>
          <CopyBar bytes={bytes} />
          <FrameSaveBar target={target} />
        </div>
      </div>
      {showReplay && <ChunkReplay key={`${target.direction}:${target.streamOffset}`} target={target} title={what} />}
    </div>
  );
}

function FieldLegend({ kinds }: { kinds: readonly string[] }) {
  const t = useProtocolText();
  return (
    <div className="field-legend" data-testid="field-legend">
      <span className="field-legend__title">{t('inspector.legend')}:</span>
      {kinds.map((kind) => (
        <span key={kind} className={`field-legend__item f-${kind}`}>
          <span className="field-legend__swatch mono" aria-hidden="true">
            ab
          </span>
          {t(`inspector.fields.${kind as 'body'}`)}
        </span>
      ))}
    </div>
  );
}

/** `result.content[0].text` */
export function formatPath(path: JsonPath): string {
  if (path.length === 0) return '(root)';
  return path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');
}
