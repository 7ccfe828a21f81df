import { describe, expect, it } from 'vitest';
import { SseReader } from '../framing/sse.ts';
import { EventStream, parseEventId } from './event-stream.ts';
import { PushStream } from './push-stream.ts';

async function readAll(stream: PushStream): Promise<{ data: string; id: string }[]> {
  const reader = new SseReader();
  const events: { data: string; id: string }[] = [];
  for await (const chunk of stream) for (const item of reader.push(chunk)) if (item.type === 'event') events.push({ data: item.event.data, id: item.event.id });
  return events;
}

describe('EventStream', () => {
  it('numbers events per stream, keeps them for replay, and never replays across streams', async () => {
    const stream = new EventStream('4', 100);
    const first = stream.connect();
    stream.send({ n: 1 });
    first.cancel(); // the connection drops; the stream goes on
    stream.send({ n: 2 });
    stream.finish();
    expect(await readAll(stream.connect(0))).toEqual([
      { data: '{"n":1}', id: '4/1' },
      { data: '{"n":2}', id: '4/2' },
    ]);
    expect(await readAll(stream.connect(1))).toEqual([{ data: '{"n":2}', id: '4/2' }]);
    expect(() => stream.send({ n: 3 })).toThrow(/ended/);
  });

  it('close-streams-early with a hold on the 3rd resume: the response comes on that resume, however early it was ready', async () => {
    const stream = new EventStream('7', 1000, undefined, true, 3);
    const post = stream.connect();
    stream.send({ progress: 0 });
    stream.send({ result: 'done' }); // the response, ready before any resume
    stream.finish();
    expect(await readAll(post)).toEqual([{ data: '', id: '7/0' }]); // closed right after priming
    // Resumes 1 and 2: what came meanwhile, never the response, and the connection closes.
    expect(await readAll(stream.connect(0))).toEqual([{ data: '{"progress":0}', id: '7/1' }]);
    expect(await readAll(stream.connect(1))).toEqual([]);
    // Resume 3 holds: the response, then the end.
    expect(await readAll(stream.connect(1))).toEqual([{ data: '{"result":"done"}', id: '7/2' }]);
  });

  it('close-streams-early without a hold: a resume after the response gets it (the plain fault)', async () => {
    const stream = new EventStream('8', 1000, undefined, true);
    stream.connect();
    stream.send({ result: 'done' });
    stream.finish();
    expect(await readAll(stream.connect(0))).toEqual([{ data: '{"result":"done"}', id: '8/1' }]);
  });

  it('primes a fresh connection with the id of what was already delivered', async () => {
    const stream = new EventStream('get', undefined);
    stream.send({ held: true }); // no connection yet
    const connection = stream.connect();
    stream.finish();
    expect(await readAll(connection)).toEqual([
      { data: '', id: 'get/0' },
      { data: '{"held":true}', id: 'get/1' },
    ]);
  });

  it('keeps only the newest events when the replay log is full', async () => {
    const stream = new EventStream('s', undefined, 2);
    for (let n = 1; n <= 4; n++) stream.send(n);
    stream.finish();
    expect((await readAll(stream.connect(0))).map((event) => event.id)).toEqual(['s/3', 's/4']);
  });

  it('parses only ids this server makes', () => {
    expect(parseEventId('get/12')).toEqual({ key: 'get', seq: 12 });
    expect(parseEventId('a/b/3')).toEqual({ key: 'a/b', seq: 3 });
    for (const bad of ['', '/1', 'x/', 'x/01', 'x/-1', 'x/1e3', 'x']) expect(parseEventId(bad)).toBeNull();
  });
});

describe('PushStream', () => {
  it('queues writes until read, ends after the queue, and drops writes after cancel', async () => {
    const stream = new PushStream();
    const cancelled: string[] = [];
    stream.onCancel(() => cancelled.push('cancel'));
    stream.write(new Uint8Array([1]));
    const iterator = stream[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ value: new Uint8Array([1]), done: false });
    const pending = iterator.next();
    stream.write(new Uint8Array([2]));
    expect(await pending).toEqual({ value: new Uint8Array([2]), done: false });
    stream.cancel();
    stream.write(new Uint8Array([3]));
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(cancelled).toEqual(['cancel']);
    expect(stream.open).toBe(false);
  });
});
