import { describe, expect, it } from 'vitest';
import { SequenceDiagram } from './SequenceDiagram.tsx';
import type { Arrow, Note, StepRecord } from '../../app/protocol/stepper-records.ts';
import { all, renderHtml } from '../testing/render.tsx';

const arrow = (seq: number, partial: Partial<Arrow>): Arrow => ({
  seq, direction: 'c2s', kind: 'request', method: 'initialize', id: 0, value: null, detail: null, frame: { offset: 0, length: 120 }, chunks: [0], t: 1, arrivedAt: 10 + seq, drawnAt: 11 + seq, aroundClient: false, exit: null, ...partial,
});
const record = (index: number, arrows: Arrow[], notes: Note[] = []): StepRecord => ({
  index, step: { kind: 'receive' }, outcome: 'ok', arrows, notes, clientState: 'new', transition: null, pending: [], registry: null, heldBytes: 0,
});

const records = [
  record(0, [arrow(0, {})]),
  record(1, [arrow(1, { direction: 's2c', kind: 'response', chunks: [0, 1, 2], frame: { offset: 0, length: 300 } })]),
  record(2, [], [{ seq: 2, lane: 'client', severity: 'error', kind: 'threw', who: 'learner', detail: 'listTools(): Error: TODO', error: { name: 'Error', message: 'TODO', line: 97, code: null }, drawnAt: 5 }]),
  record(3, [arrow(3, { kind: 'eof', frame: null, chunks: [], method: null, id: null })]),
];

describe('SequenceDiagram', () => {
  it('draws the three lanes and one arrow per frame, in order, with its words and byte count', () => {
    const html = renderHtml(<SequenceDiagram records={records} waiting={null} currentStep={3} focus={null} onInspect={() => {}} />);
    expect(all(html, /class="lane__title">([^<]+)</g)).toEqual(['Client', 'stdio pipe', 'Server']);
    // Each label ends with a space, so a screen reader does not run it into the byte count.
    expect(all(html, /class="arrow__label">([^<]+)</g)).toEqual(['initialize #0 ', 'result of initialize #0 ', 'stdin EOF ']);
    expect(all(html, /class="arrow__detail">([^<]+)</g)).toEqual(['120 B', '300 B · 3 chunks']);
    expect(all(html, /data-drawn-at="(\d+)"/g)).toEqual(['11', '12', '14']);
  });

  it('makes arrows with bytes buttons that open the inspector, and EOF a picture', () => {
    const html = renderHtml(<SequenceDiagram records={records} waiting={null} currentStep={3} focus={null} onInspect={() => {}} />);
    expect(all(html, /<g class="arrow [^"]*"[^>]*role="(button|img)"/g)).toEqual(['button', 'button', 'img']);
    expect(html).toContain('aria-label="server → client: result of initialize #0, 300 B · 3 chunks"');
  });

  it("shows a learner's error as a note on the client lane, with its line", () => {
    const html = renderHtml(<SequenceDiagram records={records} waiting={null} currentStep={3} focus={null} />);
    expect(html).toContain('class="note note--error note--threw"');
    expect(html).toContain('Threw: listTools(): Error: TODO (line 97)');
  });

  it('lights the current step and shows where a step that drew nothing yet waits', () => {
    const waitingRecords = [...records.slice(0, 1), record(1, [])];
    const html = renderHtml(<SequenceDiagram records={waitingRecords} waiting={{ step: 1, waitingFor: 'response' }} currentStep={1} focus={null} />);
    expect(all(html, /<g class="step-band( is-current)?"/g).map((match) => match.includes('is-current'))).toEqual([false, true]);
    expect(html).toContain('waiting…');
  });

  it('says so when nothing has been sent', () => {
    expect(renderHtml(<SequenceDiagram records={[]} waiting={null} currentStep={null} focus={null} />)).toContain('Nothing has crossed the pipe yet.');
  });
});
