// One relayed connection down to its bytes: the request and the response, each as a hex dump whose
// colours are the HTTP/1.1 parts (start line, headers, blank line, body; chunk size lines, chunk
// data and their CRLFs; SSE fields and the blank lines that dispatch events), the parts listed in
// wire order with MCP's headers explained, and each SSE event with the JSON-RPC message it carries.
// Hovering or focusing a part lights its bytes.

import { useMemo, useState } from 'react';
import type { HttpExchangeRecord } from '../../app/protocol/http-exchanges.ts';
import type { ProtocolText } from '../../app/protocol/text.ts';
import { HTTP_FIELD_KINDS } from '../../protocol/inspect/byte-fields.ts';
import { headerNamesInOtherCase, httpLayout, type ByteRange, type HttpLayout, type HttpPart } from '../../protocol/http/http-layout.ts';
import { utf8Groups } from '../../protocol/inspect/utf8-groups.ts';
import { bytesToBase64 } from '../../protocol/base64.ts';
import { concatBytes } from '../../protocol/inspect/concat-bytes.ts';
import { HexView } from './HexView.tsx';
import { useProtocolText } from './use-protocol-text.ts';

export function HttpInspector({ exchange }: { exchange: HttpExchangeRecord<unknown> }) {
  const t = useProtocolText();
  return (
    <div className="http-inspector" data-testid="http-inspector">
      <p className="notice" data-testid="content-length-again">{t('http.inspector.contentLengthAgain')}</p>
      <MessageBytes which="request" chunks={exchange.c2s} ended={exchange.closed} />
      {exchange.s2c.length === 0 ? <p className="hint">{t('http.inspector.noResponse')}</p> : <MessageBytes which="response" chunks={exchange.s2c} ended={exchange.closed} />}
    </div>
  );
}

function MessageBytes({ which, chunks, ended }: { which: 'request' | 'response'; chunks: readonly Uint8Array[]; ended: boolean }) {
  const t = useProtocolText();
  const bytes = useMemo(() => concatBytes(chunks), [chunks]);
  const layout = useMemo(() => httpLayout(bytes, which, { ended }), [bytes, which, ended]);
  const otherCase = useMemo(() => headerNamesInOtherCase(layout.parts), [layout]);
  const groups = useMemo(() => utf8Groups(bytes), [bytes]);
  const spans = useMemo(() => chunkSpans(chunks), [chunks]);
  const [litPart, setLitPart] = useState<number | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  // Both ways: a part lights its bytes, and a byte (hovered, or the keyboard cursor) lights its part.
  const fromByte = (index: number | null) => (index === null ? null : partAtByte(layout.parts, index));
  const [lit, setLit] = useState<ByteRange | null>(null);
  const shownPart = litPart ?? fromByte(cursor);
  const shownRange = lit ?? (shownPart === null ? null : spanOf(layout.parts[shownPart]!));
  const used = HTTP_FIELD_KINDS.filter((kind) => layout.fields.some((field) => field.kind === kind));
  const heading = t(which === 'request' ? 'http.inspector.request' : 'http.inspector.response', { count: bytes.length });
  return (
    <section className="http-message" aria-label={heading} data-testid={`http-${which}`} data-b64={bytesToBase64(bytes)}>
      <h3>{heading}</h3>
      <div className="field-legend">
        {used.map((kind) => (
          <span key={kind} className={`field-legend__item f-${kind}`}>
            <span className="field-legend__swatch mono" aria-hidden="true">
              ab
            </span>
            {t(`inspector.fields.${kind}`)}
          </span>
        ))}
      </div>
      <HexView
        bytes={bytes}
        fields={layout.fields}
        groups={groups}
        chunks={spans}
        highlight={shownRange}
        cursor={cursor}
        label={t('http.inspector.hexLabel', { which: heading })}
        chunkMarkerLabel={(n) => t('inspector.chunkMarker', { n })}
        onHoverByte={(index) => {
          setLit(null);
          setLitPart(fromByte(index));
        }}
        onCursor={(index) => {
          setLit(null);
          setLitPart(null);
          setCursor(index);
        }}
      />
      <p className="hint" data-testid="tap-chunks">
        {t('http.inspector.chunks', { count: chunks.length })}: {chunks.map((chunk, index) => t('http.inspector.chunk', { n: index + 1, count: chunk.length })).join(' · ')}
      </p>
      {layout.declaredLength !== null && (
        <p className={layout.declaredLength === layout.body.length ? 'agree' : 'disagree'} data-testid="http-content-length">
          {t('http.inspector.contentLength', { declared: layout.declaredLength, counted: layout.body.length })}
        </p>
      )}
      {layout.parts.some((part) => part.kind === 'chunk-size') && <p className="hint">{t('http.inspector.chunkedNote')}</p>}
      {otherCase.length > 0 && (
        <p className="hint" data-testid="http-header-case-note">
          {t('http.inspector.headerCaseNote', { names: otherCase.join(', ') })}
        </p>
      )}
      <h4>{t('http.inspector.parts')}</h4>
      <ol className="http-parts mono" onMouseLeave={() => setLitPart(null)}>
        {layout.parts.map((part, index) => (
          <li key={index} className={`http-part http-part--${part.kind}${shownPart === index ? ' is-lit' : ''}`} data-kind={part.kind} data-singled={part.kind === 'header' ? (part.singled ?? undefined) : undefined}>
            <button type="button" className="http-part__button" onMouseEnter={() => setLitPart(index)} onFocus={() => setLitPart(index)} onBlur={() => setLitPart(null)}>
              {partText(t, part)}
            </button>
            {part.kind === 'header' && part.singled !== null && <span className="http-part__why"> — {t(`http.inspector.why.${part.singled}`)}</span>}
          </li>
        ))}
      </ol>
      {layout.events.length > 0 && <EventList layout={layout} onLight={setLit} />}
    </section>
  );
}

function EventList({ layout, onLight }: { layout: HttpLayout; onLight(range: ByteRange | null): void }) {
  const t = useProtocolText();
  return (
    <>
      <h4>{t('http.inspector.events')}</h4>
      <ol className="http-sse-events">
        {layout.events.map((event) => {
          const span = event.ranges.length > 0 ? { start: event.ranges[0]!.start, end: event.ranges.at(-1)!.end } : null;
          return (
            <li key={event.index} data-testid="sse-event" data-summary={event.summary}>
              <button type="button" className="http-part__button" onMouseEnter={() => onLight(span)} onFocus={() => onLight(span)} onBlur={() => onLight(null)}>
                {t('http.inspector.event', { n: event.index + 1, summary: summaryText(t, event.summary) })}
              </button>
              {event.message !== undefined && <pre className="mono http-sse-events__message">{JSON.stringify(event.message, null, 2)}</pre>}
            </li>
          );
        })}
      </ol>
    </>
  );
}

/** An event's summary: a method or `result #1` as it is (protocol names), the rest in words. */
export function summaryText(t: ProtocolText, summary: string): string {
  if (summary === 'priming') return t('http.summary.priming');
  if (summary === 'not JSON') return t('http.summary.notJson');
  if (summary === 'JSON') return t('http.summary.json');
  return summary;
}

/** The part a byte belongs to (the last one whose bytes hold it), or null. */
function partAtByte(parts: readonly HttpPart[], index: number): number | null {
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    const ranges = 'ranges' in part ? part.ranges : [part];
    if (ranges.some((range) => index >= range.start && index < range.end)) return i;
  }
  return null;
}

function spanOf(part: HttpPart): ByteRange | null {
  if ('ranges' in part) return part.ranges.length === 0 ? null : { start: part.ranges[0]!.start, end: part.ranges.at(-1)!.end };
  return { start: part.start, end: part.end };
}

function partText(t: ProtocolText, part: HttpPart): string {
  switch (part.kind) {
    case 'start-line':
      return t('http.inspector.part.start-line', { text: part.text });
    case 'header':
      return t('http.inspector.part.header', { name: part.name, value: part.value });
    case 'blank-line':
      return t('http.inspector.part.blank-line');
    case 'body':
      return t('http.inspector.part.body', { count: part.end - part.start });
    case 'chunk-size':
      return part.size === 0 ? t('http.inspector.part.last-chunk') : t('http.inspector.part.chunk-size', { hex: part.size.toString(16), size: part.size });
    case 'chunk-data':
      return t('http.inspector.part.chunk-data', { count: part.end - part.start });
    case 'chunk-end':
      return t('http.inspector.part.chunk-end');
    case 'trailer-end':
      return t('http.inspector.part.trailer-end');
    case 'sse-field':
      return t('http.inspector.part.sse-field', { name: part.name, value: part.value.length > 120 ? `${part.value.slice(0, 120)}…` : part.value });
    case 'sse-comment':
      return t('http.inspector.part.sse-comment', { text: part.text });
    case 'sse-blank':
      return t('http.inspector.part.sse-blank', { n: part.event + 1 });
    case 'error':
      return t('http.inspector.part.error', { detail: part.detail });
  }
}

/** Where each chunk the tap reported starts in the message, for the hex view's chunk markers. */
function chunkSpans(chunks: readonly Uint8Array[]) {
  let at = 0;
  return chunks.map((chunk, index) => {
    const span = { index, start: at, end: at + chunk.length, chunkLength: chunk.length, t: null };
    at += chunk.length;
    return span;
  });
}

