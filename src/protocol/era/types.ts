// What a dual-era server is built from. The feature shapes (resources, templates, completion) are
// the 2025-11-25 ones in features/types.ts; tools and prompts get an era-neutral context: instead
// of sending the client a request and waiting (the handshake era's sampling/elicitation/roots),
// they read `inputResponses` and return an InputRequiredResult when they still need something
// (2026-07-28, basic/patterns/mrtr.mdx). The modern server sends that result as it is; the legacy
// bridge turns it into real server-to-client requests and runs the tool again with the answers,
// so one definition serves both eras.

import type { CallToolResult, ToolInfo } from '../mcp.ts';
import type { LogLevel, PromptArgument, PromptMessage } from '../features/types.ts';
import type { ClientCapabilities } from './meta.ts';

/** One embedded server-to-client request: elicitation/create, sampling/createMessage or roots/list. */
export interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}

export type InputRequests = Record<string, InputRequest>;
/** The client's answers, keyed like the InputRequests they answer; untrusted input. */
export type InputResponses = Record<string, Record<string, unknown>>;

export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  /**
   * What the tool wants back on the retry. The server seals it (integrity-protected, bound to
   * the method and name) before it leaves; the tool only ever sees its own plain value again.
   */
  requestState?: string;
}

export function inputRequired(inputRequests?: InputRequests, requestState?: string): InputRequiredResult {
  const result: InputRequiredResult = { resultType: 'input_required' };
  if (inputRequests !== undefined) result.inputRequests = inputRequests;
  if (requestState !== undefined) result.requestState = requestState;
  return result;
}

export function isInputRequired(value: unknown): value is InputRequiredResult {
  return typeof value === 'object' && value !== null && (value as { resultType?: unknown }).resultType === 'input_required';
}

/** What a tool or prompt may do while it runs, in either era. */
export interface EraContext {
  readonly era: 'legacy' | 'modern';
  readonly signal: AbortSignal;
  readonly progressToken: string | number | undefined;
  /** notifications/progress for this request; nothing when no progress was asked for. */
  progress(progress: number, total?: number, message?: string): void;
  /** notifications/message: modern, only at or above the request's `_meta` logLevel (none without one). */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Modern: this request's `_meta` clientCapabilities. Legacy: what initialize declared. */
  readonly clientCapabilities: Readonly<ClientCapabilities>;
  /** The answers a retry carries (modern), or the bridge gathered (legacy). */
  readonly inputResponses: Readonly<InputResponses> | undefined;
  /** The plain state this tool returned last round, verified; undefined on the first round. */
  readonly requestState: string | undefined;
}

export type ToolOutput = CallToolResult | string | InputRequiredResult;

export interface EraTool {
  info: ToolInfo;
  run(args: Record<string, unknown>, context: EraContext): Promise<ToolOutput> | ToolOutput;
}

export interface EraPrompt {
  name: string;
  description?: string;
  arguments?: PromptArgument[];
  get(args: Record<string, string>, context: EraContext): PromptMessage[] | InputRequiredResult | Promise<PromptMessage[] | InputRequiredResult>;
}

/** The capability each embedded request kind needs the client to have declared (mrtr.mdx). */
export function requiredCapabilityOf(request: InputRequest): ClientCapabilities {
  switch (request.method) {
    case 'elicitation/create':
      return request.params?.mode === 'url' ? { elicitation: { url: {} } } : { elicitation: {} };
    case 'sampling/createMessage':
      return { sampling: {} };
    case 'roots/list':
      return { roots: {} };
    default:
      return {};
  }
}

/** The capabilities in `required` that `declared` lacks, or undefined when none is missing. */
export function missingCapabilities(required: ClientCapabilities, declared: Readonly<ClientCapabilities>): ClientCapabilities | undefined {
  const missing: ClientCapabilities = {};
  for (const [name, need] of Object.entries(required)) {
    const have = declared[name];
    if (have === undefined || have === null) {
      missing[name] = need;
      continue;
    }
    // elicitation.url must be declared explicitly; a bare elicitation: {} means form mode.
    if (name === 'elicitation' && isObject(need) && isObject(have) && need.url !== undefined && have.url === undefined) missing[name] = { url: {} };
  }
  return Object.keys(missing).length > 0 ? missing : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
