// Issue 22: a 2026-07-28 requestState could be replayed for its whole 10 minutes and reused with
// other arguments. Here the real `mcp-http --tools=conformance` program (the conformance suite's
// MRTR fixture test_input_required_result_request_state, which accepts any arguments) is driven
// over HTTP as an attacker would: a state is used twice, and used for other arguments and another
// tool. Each misuse gets the JSON-RPC error -32602 (Invalid params: requestState failed
// verification); the controls (the first use; the refused state then used as minted) succeed, so
// a refusal is the server's judgement and not a broken request.

import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/protocol/jsonrpc.ts';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION } from '../../src/protocol/era/meta.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { killAllPrograms, RunningProgram } from '../integration/child-transport.ts';

const TOOL = 'test_input_required_result_request_state';
const OTHER_TOOL = 'test_input_required_result_tampered_state';
let url: string;
let nextId = 1;

beforeAll(async () => {
  const program = new RunningProgram(process.execPath, ['--import', 'tsx', resolve(PROJECT_ROOT, 'server/mcp-http.ts'), '--tools=conformance']);
  await program.waitFor(() => program.stdout.includes('\n'), 'mcp-http to print its URL', 30_000);
  url = program.stdout.toString('utf8').trim();
});

afterAll(async () => {
  await killAllPrograms();
});

interface Answer {
  result?: { resultType?: string; requestState?: string; content?: Array<{ text?: string }> };
  error?: { code: number; message: string };
}

/** One modern tools/call, with the headers that must mirror its body. */
async function call(tool: string, args: Record<string, unknown>, retry?: { requestState: string }): Promise<Answer> {
  const params: Record<string, unknown> = {
    name: tool,
    arguments: args,
    _meta: { [META_PROTOCOL_VERSION]: MODERN_PROTOCOL_VERSION, [META_CLIENT_CAPABILITIES]: { elicitation: {} } },
  };
  if (retry) Object.assign(params, { inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: retry.requestState });
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': tool,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params }),
  });
  return (await response.json()) as Answer;
}

/** Round one: the tool asks for a confirmation and hands out a sealed state. */
async function mint(args: Record<string, unknown>): Promise<string> {
  const first = await call(TOOL, args);
  expect(first.result?.resultType).toBe('input_required');
  expect(typeof first.result?.requestState).toBe('string');
  return first.result!.requestState!;
}

const CONFIRMED = { result: { content: [{ type: 'text', text: 'Confirmed: state-ok' }] } };
const REFUSED = { error: { code: ErrorCode.InvalidParams, message: expect.stringMatching(/^Invalid params: requestState failed verification/) } };

describe('a 2026-07-28 requestState opens once, for its own tool and arguments', () => {
  it('a replayed state is refused with -32602 (the first use succeeds)', async () => {
    const state = await mint({ note: 'a' });
    expect(await call(TOOL, { note: 'a' }, { requestState: state })).toMatchObject(CONFIRMED);
    expect(await call(TOOL, { note: 'a' }, { requestState: state })).toMatchObject(REFUSED);
  });

  it('a state re-targeted at other arguments is refused with -32602; used as minted, it still works', async () => {
    const state = await mint({ note: 'a' });
    expect(await call(TOOL, { note: 'b' }, { requestState: state })).toMatchObject(REFUSED);
    expect(await call(TOOL, {}, { requestState: state })).toMatchObject(REFUSED);
    expect(await call(TOOL, { note: 'a' }, { requestState: state })).toMatchObject(CONFIRMED);
  });

  it('a state re-targeted at another tool is refused with -32602; used as minted, it still works', async () => {
    const state = await mint({});
    expect(await call(OTHER_TOOL, {}, { requestState: state })).toMatchObject(REFUSED);
    expect(await call(TOOL, {}, { requestState: state })).toMatchObject(CONFIRMED);
  });
});
