// The scripted model: a user message, then the model's turns (each may say something and propose
// tool calls), then a final answer that may quote observations as {{1}}, {{2}}… A script is data a
// workshop can edit, so it is validated here with messages that say where and what is wrong.
// Deterministic on purpose: no network, no API key, the same turn every time.

import { isLegalToolName } from '../../protocol/register-mcp-tools.ts';

export interface ScriptCall {
  /** A registry name, or with `server` the tool's name on that MCP server (whatever prefix it got). */
  tool: string;
  server?: string;
  args: Record<string, unknown>;
}

export interface ModelTurn {
  say?: string;
  calls: ScriptCall[];
}

export interface AgentScript {
  user: string;
  turns: ModelTurn[];
  final: string;
}

export type ScriptErrorCode =
  | 'json'
  | 'notObject'
  | 'userMissing'
  | 'turnsMissing'
  | 'turnNotObject'
  | 'sayNotString'
  | 'callsMissing'
  | 'callNotObject'
  | 'toolMissing'
  | 'toolIllegal'
  | 'serverNotString'
  | 'argsNotObject'
  | 'finalMissing'
  | 'tooManyCalls'
  | 'quoteOutOfRange';

/** One problem: where (a JSON path like `turns[1].calls[0].args`), what, and details for the message. */
export interface ScriptError {
  path: string;
  code: ScriptErrorCode;
  values: Record<string, string | number>;
}

export type ParsedScript = { ok: true; script: AgentScript } | { ok: false; errors: ScriptError[] };

/** More would only make the turn long; a loop that calls 20 tools is a different lesson. */
export const MAX_CALLS = 20;
const QUOTE = /\{\{\s*(\d+)\s*\}\}/g;

export function parseScript(text: string): ParsedScript {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [{ path: '', code: 'json', values: { message: error instanceof Error ? error.message : String(error) } }] };
  }
  return validateScript(value);
}

export function validateScript(value: unknown): ParsedScript {
  const errors: ScriptError[] = [];
  const fail = (path: string, code: ScriptErrorCode, values: Record<string, string | number> = {}) => errors.push({ path, code, values });
  if (!isObject(value)) {
    fail('', 'notObject');
    return { ok: false, errors };
  }
  if (typeof value.user !== 'string' || value.user.trim() === '') fail('user', 'userMissing');
  if (typeof value.final !== 'string') fail('final', 'finalMissing');
  const turns: ModelTurn[] = [];
  let callCount = 0;
  if (!Array.isArray(value.turns)) fail('turns', 'turnsMissing');
  else {
    value.turns.forEach((turn: unknown, t: number) => {
      const at = `turns[${t}]`;
      if (!isObject(turn)) return fail(at, 'turnNotObject');
      if (turn.say !== undefined && typeof turn.say !== 'string') fail(`${at}.say`, 'sayNotString');
      if (!Array.isArray(turn.calls)) return fail(`${at}.calls`, 'callsMissing');
      const calls: ScriptCall[] = [];
      turn.calls.forEach((call: unknown, c: number) => {
        const callAt = `${at}.calls[${c}]`;
        callCount++;
        if (!isObject(call)) return fail(callAt, 'callNotObject');
        if (typeof call.tool !== 'string' || call.tool === '') fail(`${callAt}.tool`, 'toolMissing');
        else if (!isLegalToolName(call.tool)) fail(`${callAt}.tool`, 'toolIllegal', { tool: call.tool });
        if (call.server !== undefined && typeof call.server !== 'string') fail(`${callAt}.server`, 'serverNotString');
        const args = call.args === undefined ? {} : call.args;
        if (!isObject(args)) fail(`${callAt}.args`, 'argsNotObject');
        calls.push({ tool: String(call.tool), ...(typeof call.server === 'string' ? { server: call.server } : {}), args: isObject(args) ? args : {} });
      });
      turns.push({ ...(typeof turn.say === 'string' ? { say: turn.say } : {}), calls });
    });
  }
  if (callCount > MAX_CALLS) fail('turns', 'tooManyCalls', { count: callCount, max: MAX_CALLS });
  if (typeof value.final === 'string') {
    for (const match of value.final.matchAll(QUOTE)) {
      const n = Number(match[1]);
      if (n < 1 || n > callCount) fail('final', 'quoteOutOfRange', { quote: match[0], count: callCount });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, script: { user: value.user as string, turns, final: value.final as string } };
}

/** The final answer with {{n}} replaced by the n-th observation (1-based, in call order). */
export function quoteObservations(final: string, observations: readonly string[]): string {
  return final.replace(QUOTE, (whole, digits: string) => observations[Number(digits) - 1] ?? whole);
}

export function countCalls(script: AgentScript): number {
  return script.turns.reduce((sum, turn) => sum + turn.calls.length, 0);
}

export function scriptToText(script: AgentScript): string {
  return JSON.stringify(script, null, 2);
}

/**
 * The chapter's turn: echo, the remote add, the remote delete_file. Calls name the echo server's
 * own tool names with `server: "echo"`, so the same script runs whether the merge used a prefix.
 */
export function defaultScript(language: string): AgentScript {
  const zh = language.startsWith('zh');
  return {
    user: zh ? '帮我用 echo 服务器回显 "hello from MCP"，用它算一下 2 + 3，再把 /tmp/scratch.txt 删掉。' : 'Echo "hello from MCP" with the echo server, add 2 and 3 with it, then delete /tmp/scratch.txt.',
    turns: [
      { say: zh ? '先让 echo 服务器回显这段文字。' : 'First I ask the echo server to repeat the text.', calls: [{ tool: 'echo', server: 'echo', args: { text: 'hello from MCP' } }] },
      { say: zh ? '再用远程的 add 算加法。' : 'Now the remote add.', calls: [{ tool: 'add', server: 'echo', args: { a: 2, b: 3 } }] },
      { say: zh ? '最后删除文件，这一步需要你同意。' : 'Last, the file. Deleting needs your approval.', calls: [{ tool: 'delete_file', server: 'echo', args: { path: '/tmp/scratch.txt' } }] },
    ],
    final: zh ? 'echo 服务器回显了「{{1}}」，2 + 3 = {{2}}；删除文件的结果：{{3}}' : 'The echo server said "{{1}}", 2 + 3 = {{2}}, and the file: {{3}}',
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
