import { describe, expect, it } from 'vitest';
import { mcpResultToText } from '../../protocol/mcp-result-to-text.ts';
import * as registryModule from '../../protocol/registry.ts';
import { CHAPTER_TOOL_NAMES, createLocalRegistry } from '../../sandbox/local-tools.ts';
import { runAgentTurn, type AgentLoopDeps, type ApprovalRequest, type TranscriptEntry } from './agent-loop.ts';
import { validateScript, type AgentScript } from './agent-script.ts';
import { toolRows } from '../../sandbox/tool-table.ts';

/** The chapter's local registry plus remote-looking tools whose executors answer like McpClient would. */
function registry() {
  const reg = createLocalRegistry(registryModule, CHAPTER_TOOL_NAMES);
  const source = (remoteName: string) => ({ kind: 'mcp' as const, server: 'echo', remoteName });
  reg.register({ name: 'mcp__echo__echo', description: '', parameters: [], risk: 'auto', source: source('echo') }, (args) => mcpResultToText({ content: [{ type: 'text', text: String(args.text) }] }));
  reg.register({ name: 'mcp__echo__fail', description: '', parameters: [], risk: 'auto', source: source('fail') }, () => mcpResultToText({ content: [{ type: 'text', text: 'it broke' }], isError: true }));
  reg.register({ name: 'mcp__echo__delete_file', description: '', parameters: [], risk: 'approve', source: source('delete_file') }, (args) => `would delete ${String(args.path)}`);
  reg.register({ name: 'mcp__echo__boom', description: '', parameters: [], risk: 'auto', source: source('boom') }, () => {
    throw Object.assign(new Error('MCP error -32603: Internal error'), { code: -32603 });
  });
  return reg;
}

function script(calls: Array<{ tool: string; server?: string; args?: Record<string, unknown> }>, final = 'done'): AgentScript {
  const parsed = validateScript({ user: 'please', turns: [{ say: 'on it', calls }], final });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.script;
}

async function run(s: AgentScript, answers: boolean[] = []) {
  const reg = registry();
  const asked: ApprovalRequest[] = [];
  const executed: string[] = [];
  const streamed: TranscriptEntry[] = [];
  const windows: string[] = [];
  const deps: AgentLoopDeps = {
    rows: () => toolRows(reg.list()),
    prefix: 'mcp__echo__',
    execute: (name, args) => {
      executed.push(name);
      return reg.execute(name, args);
    },
    approve: async (request) => {
      asked.push(request);
      return answers.shift() ?? false;
    },
    refusal: (request) => `The user denied ${request.name}.`,
    notRegistered: (call) => `No ${call.tool} from ${call.server}.`,
    emit: (entry) => streamed.push(entry),
    callStarted: (call, row) => windows.push(`start ${call} ${row.name}`),
    callEnded: (call) => windows.push(`end ${call}`),
  };
  const transcript = await runAgentTurn(s, deps);
  expect(streamed).toEqual(transcript);
  return { transcript, asked, executed, windows };
}

const observations = (transcript: TranscriptEntry[]) => transcript.flatMap((entry) => (entry.type === 'observation' ? [`${entry.call}:${entry.kind}:${entry.text}`] : []));
const decisions = (transcript: TranscriptEntry[]) => transcript.flatMap((entry) => (entry.type === 'decision' ? [`${entry.call}:${entry.decision}`] : []));

describe('the agent turn', () => {
  it('runs auto calls at once, feeds observations back and quotes them in the final answer', async () => {
    const { transcript, executed, windows } = await run(script([{ tool: 'echo', server: 'echo', args: { text: 'hi' } }, { tool: 'add', args: { a: 2, b: 3 } }], '{{1}} and {{2}}'));
    expect(transcript[0]).toEqual({ type: 'user', text: 'please' });
    expect(transcript[1]).toEqual({ type: 'model', text: 'on it' });
    expect(transcript[2]).toMatchObject({ type: 'call', call: 1, name: 'mcp__echo__echo', tier: 'auto', origin: { kind: 'mcp', remoteName: 'echo' }, args: { text: 'hi' } });
    expect(executed).toEqual(['mcp__echo__echo', 'add']);
    expect(decisions(transcript)).toEqual(['1:auto', '2:auto']);
    expect(observations(transcript)).toEqual(['1:ok:hi', '2:ok:5']);
    expect(transcript.at(-1)).toEqual({ type: 'final', text: 'hi and 5' });
    expect(windows).toEqual(['start 1 mcp__echo__echo', 'end 1', 'start 2 add', 'end 2']);
  });

  it('stops at an approve-tier call: yes runs it', async () => {
    const { transcript, asked, executed } = await run(script([{ tool: 'delete_file', server: 'echo', args: { path: '/tmp/x' } }], '{{1}}'), [true]);
    expect(asked).toEqual([{ call: 1, name: 'mcp__echo__delete_file', origin: { kind: 'mcp', server: 'echo', remoteName: 'delete_file' }, args: { path: '/tmp/x' } }]);
    expect(executed).toEqual(['mcp__echo__delete_file']);
    expect(decisions(transcript)).toEqual(['1:approved']);
    expect(transcript.at(-1)).toEqual({ type: 'final', text: 'would delete /tmp/x' });
  });

  it('a denial is data for the model: nothing runs and the turn goes on', async () => {
    const { transcript, executed } = await run(script([{ tool: 'delete_file', server: 'echo', args: { path: '/tmp/x' } }, { tool: 'echo', server: 'echo', args: { text: 'after' } }], '{{1}} / {{2}}'), [false]);
    expect(executed).toEqual(['mcp__echo__echo']);
    expect(decisions(transcript)).toEqual(['1:denied', '2:auto']);
    expect(observations(transcript)).toEqual(['1:denied:The user denied mcp__echo__delete_file.', '2:ok:after']);
    expect(transcript.at(-1)).toEqual({ type: 'final', text: 'The user denied mcp__echo__delete_file. / after' });
  });

  it('shows suggest-tier calls and runs them without waiting', async () => {
    const { transcript, asked } = await run(script([{ tool: 'write_note', args: { text: 'milk' } }]));
    expect(asked).toEqual([]);
    expect(decisions(transcript)).toEqual(['1:suggested']);
    expect(observations(transcript)).toEqual(['1:ok:noted: milk']);
  });

  it('tells a tool failure (isError) from a failed call (exception) and an unknown tool', async () => {
    const { transcript, executed } = await run(script([{ tool: 'fail', server: 'echo' }, { tool: 'boom', server: 'echo' }, { tool: 'nope' }, { tool: 'add', server: 'other' }]));
    expect(observations(transcript)).toEqual([
      '1:tool-error:[tool error] it broke',
      '2:exception:Tool "mcp__echo__boom" failed: MCP error -32603: Internal error',
      expect.stringMatching(/^3:unknown-tool:Unknown tool "nope"/),
      '4:unknown-tool:No add from other.',
    ]);
    // The unregistered server tool never reached the registry.
    expect(executed).toEqual(['mcp__echo__fail', 'mcp__echo__boom', 'nope']);
  });

  it('stops before the next call once cancelled', async () => {
    let calls = 0;
    const reg = registry();
    const transcript = await runAgentTurn(script([{ tool: 'get_time' }, { tool: 'get_time' }]), {
      rows: () => toolRows(reg.list()),
      prefix: '',
      execute: (name, args) => reg.execute(name, args),
      approve: async () => true,
      refusal: () => '',
      notRegistered: () => '',
      emit: () => {},
      callStarted: () => calls++,
      cancelled: () => calls > 0,
    });
    expect(calls).toBe(1);
    expect(transcript.at(-1)).toEqual({ type: 'stopped', reason: 'cancelled' });
  });
});
