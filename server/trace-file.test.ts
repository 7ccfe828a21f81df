import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTrace } from '../src/runtime/trace/trace-reader.ts';
import { PROJECT_ROOT } from '../tools/project-root.ts';
import { openTraceFile, type TraceHeaderDraft } from './trace-file.ts';

const DRAFT: TraceHeaderDraft = { format: 'mcp-playground-trace', version: 1, mode: 'stdio', started: '2026-12-01T16:00:00.000Z', recorder: 'test', program: ['srv'] };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const nextTick = () => new Promise((resolveTick) => setImmediate(resolveTick));

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
function tempFile(): string {
  dir = mkdtempSync(join(tmpdir(), 'trace-file-'));
  return join(dir, 'trace.jsonl');
}

describe('openTraceFile', () => {
  it('holds the events back until the first bytes show the framing, then writes the header first', async () => {
    const path = tempFile();
    const file = openTraceFile(path, DRAFT, null);
    file.add({ tap: 1, ev: 'spawn', t: 0, pid: 1, argv: ['srv'] });
    file.add({ tap: 1, ev: 'c2s', t: 1, b64: b64('Content-') });
    await nextTick();
    expect(readFileSync(path, 'utf8')).toBe('');
    file.add({ tap: 1, ev: 'c2s', t: 2, b64: b64('length: 2\r\n\r\n{}') });
    await nextTick();
    const written = parseTrace(readFileSync(path));
    expect(written).toMatchObject({ header: { framing: 'content-length', framingSource: 'guessed' } });
    expect('events' in written && written.events.map((e) => e.ev)).toEqual(['spawn', 'c2s', 'c2s']);
    expect(file.payloadBytes).toBe('Content-length: 2\r\n\r\n{}'.length);
    file.close();
    file.add({ tap: 1, ev: 'exit', t: 3, code: 0, signal: null });
    expect(parseTrace(readFileSync(path))).toMatchObject({ events: { length: 3 } });
  });

  it('says ndjson, guessed, when the recording ends before any bytes', () => {
    const path = tempFile();
    const file = openTraceFile(path, DRAFT, null);
    file.add({ tap: 1, ev: 'spawn', t: 0, pid: 1, argv: ['srv'] });
    file.close();
    expect(parseTrace(readFileSync(path))).toMatchObject({ header: { framing: 'ndjson', framingSource: 'guessed' }, events: [{ ev: 'spawn' }] });
  });

  it('loses nothing when the process exits straight after adding events', () => {
    const path = tempFile();
    const script = [
      `import { openTraceFile } from ${JSON.stringify(resolve(PROJECT_ROOT, 'server/trace-file.ts'))};`,
      `const file = openTraceFile(${JSON.stringify(path)}, ${JSON.stringify(DRAFT)}, 'ndjson');`,
      `for (let i = 0; i < 5000; i++) file.add({ tap: 1, ev: 'c2s', t: i, b64: ${JSON.stringify(b64('{}\n'))} });`,
      'process.exit(0);',
    ].join('\n');
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PROJECT_ROOT });
    const written = parseTrace(readFileSync(path));
    expect('events' in written && written.events.length).toBe(5000);
  });
});
