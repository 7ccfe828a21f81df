import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';
import { checkHelpRequest } from '../../runtime/room-messages.ts';
import { ProtocolUiStore } from '../protocol/protocol-ui-store.ts';
import { ReferenceDriver, referenceRegisterRunner } from '../protocol/reference-driver.ts';
import { StepperStore } from '../protocol/stepper-store.ts';
import { frameToAsk, helpFrameOf, inspectTargetOf } from './help-frame.ts';

// A real handshake against the echo server, so the frames are what the stepper really records.
let stepper: StepperStore;
beforeAll(async () => {
  stepper = new StepperStore({ server: inProcessServerPort(), createDriver: () => new ReferenceDriver(), createRegisterRunner: () => referenceRegisterRunner, autoDelayMs: 0 });
  await stepper.runToEnd();
});
afterAll(() => stepper.dispose());

const arrowSeq = (method: string) => stepper.getSnapshot().records.flatMap((record) => record.arrows).find((arrow) => arrow.method === method && arrow.kind === 'request')!.seq;

describe('the frame a question carries', () => {
  it('is the frame opened last, kept after the inspector closes, and the instructor sees it as the attendee did', () => {
    const ui = new ProtocolUiStore();
    expect(frameToAsk(ui, stepper)).toBeNull();
    const target = stepper.inspect(arrowSeq('tools/call'))!;
    ui.openInspector(target);
    ui.closeInspector();
    const frame = frameToAsk(ui, stepper)!;
    // What the bridge checks is what the page sends, and it reads back as the same frame.
    const request = checkHelpRequest(JSON.parse(JSON.stringify({ exercise: 2, file: 'frames.ts', code: '', results: [], frame })));
    expect(request.ok).toBe(true);
    const shown = inspectTargetOf(request.ok ? request.value.frame! : frame)!;
    expect(shown).toEqual({ ...target, replay: [] });
    expect(new TextDecoder().decode(shown.bytes)).toContain('你好, MCP 👋');
  });

  it('is none for a frame over 16 KiB or in over 256 chunks, and an unknown kind shows as invalid', () => {
    const target = stepper.inspect(arrowSeq('initialize'))!;
    expect(helpFrameOf({ ...target, bytes: new Uint8Array(16 * 1024 + 1) })).toBeNull();
    expect(helpFrameOf({ ...target, chunks: Array.from({ length: 257 }, (_, index) => ({ index, start: 0, end: 0, chunkLength: 1, t: null })) })).toBeNull();
    expect(inspectTargetOf({ ...helpFrameOf(target)!, kind: 'sneaky' })?.kind).toBe('invalid');
    expect(inspectTargetOf({ ...helpFrameOf(target)!, bytes: '@@' })).toBeNull();
  });

  it('is otherwise the last frame the run could not read, among the steps shown', () => {
    const ui = new ProtocolUiStore();
    const target = stepper.inspect(arrowSeq('tools/list'))!;
    const real = stepper.getSnapshot();
    const arrows = real.records.flatMap((record) => record.arrows);
    // The same run, as if the reader had refused the tools/list request.
    const refused = (record: (typeof real.records)[number]) => ({ ...record, arrows: record.arrows.map((arrow) => (arrow.method === 'tools/list' && arrow.kind === 'request' ? { ...arrow, kind: 'invalid' as const } : arrow)) });
    const fake = (cursor: number) => ({ getSnapshot: () => ({ ...real, cursor, records: real.records.map(refused) }), inspect: (seq: number) => (arrows.some((arrow) => arrow.seq === seq) ? target : null) });
    const listedAt = real.records.findIndex((record) => record.arrows.some((arrow) => arrow.method === 'tools/list'));
    expect(frameToAsk(ui, fake(real.records.length))).toEqual(helpFrameOf(target));
    expect(frameToAsk(ui, fake(listedAt))).toBeNull();
  });
});
