// The fixture set the conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12,
// --spec-version 2026-07-28) expects, served dual-era: the 2025-11-25 fixtures of
// features/conformance-fixtures.ts (unchanged for the handshake era), plus what the 2026-07-28
// scenarios name: MRTR tools and a prompt (input-required-result-*), diagnostic tools
// (server-stateless: test_missing_capability, test_streaming_elicitation, test_logging_tool,
// test_trigger_tool_change), a tool with an x-mcp-header argument (http-custom-header-server-
// validation) and the JSON Schema 2020-12 tool with SEP-2106's wider vocabulary.

import { CONFORMANCE_PROMPTS, CONFORMANCE_RESOURCES, CONFORMANCE_TEMPLATES, CONFORMANCE_TOOLS } from '../features/conformance-fixtures.ts';
import { FeatureServer } from '../features/feature-server.ts';
import type { FeatureTool, MessageContext, Prompt } from '../features/types.ts';
import { legacyPrompt, legacyTool } from './legacy-bridge.ts';
import { ModernServer } from './modern-server.ts';
import { inputRequired, type EraContext, type EraPrompt, type EraTool, type InputRequest } from './types.ts';

const SERVER_INFO = { name: 'mcp-playground-conformance', version: '0.2.0' };
export const COMPLETIONS = ['paris', 'park', 'party', 'test', 'testing', 'tester'];
const NO_ARGUMENTS = { type: 'object', properties: {} };

/** A 2025-era fixture tool in the modern era: a request to the client is not possible there (MRTR is). */
export function eraToolOf(tool: FeatureTool): EraTool {
  return {
    info: tool.info,
    run: (args, context) =>
      tool.run(args, {
        ...context,
        request: (method) => Promise.reject(new Error(`${method}: the 2026-07-28 era has no server-to-client requests; return an InputRequiredResult`)),
        closeConnection: () => {},
      }),
  };
}

const elicit = (message: string, properties: Record<string, unknown>, required: string[]): InputRequest => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties, required } },
});
const sample = (text: string, maxTokens: number): InputRequest => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});
const listRoots = (): InputRequest => ({ method: 'roots/list', params: {} });

/** The accepted content of an elicitation answer, if that is what the key holds. */
function accepted(context: EraContext, key: string): Record<string, unknown> | undefined {
  const answer = context.inputResponses?.[key];
  return answer?.action === 'accept' && typeof answer.content === 'object' && answer.content !== null ? (answer.content as Record<string, unknown>) : undefined;
}

function samplingText(context: EraContext, key: string): string | undefined {
  const content = context.inputResponses?.[key]?.content as { type?: unknown; text?: unknown } | undefined;
  return typeof content?.text === 'string' ? content.text : undefined;
}

function roots(context: EraContext, key: string): { uri: string }[] | undefined {
  const list = context.inputResponses?.[key]?.roots;
  return Array.isArray(list) ? (list as { uri: string }[]) : undefined;
}

function tool(name: string, description: string, run: EraTool['run'], inputSchema: Record<string, unknown> = NO_ARGUMENTS): EraTool {
  return { info: { name, description, inputSchema }, run };
}

const NAME_REQUEST = elicit('What is your name?', { name: { type: 'string' } }, ['name']);
const CONFIRM_REQUEST = elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']);

export const MRTR_TOOLS: readonly EraTool[] = [
  tool('test_input_required_result_elicitation', 'Asks for your name (MRTR elicitation), then greets you', (_args, context) => {
    const name = accepted(context, 'user_name')?.name;
    // Missing or unreadable answers are asked for again rather than refused (mrtr.mdx, Error Handling).
    return typeof name === 'string' ? `Hello, ${name}!` : inputRequired({ user_name: NAME_REQUEST });
  }),
  tool('test_input_required_result_sampling', 'Asks the client for an LLM completion (MRTR sampling)', (_args, context) => {
    const text = samplingText(context, 'capital_question');
    return text !== undefined ? `LLM response: ${text}` : inputRequired({ capital_question: sample('What is the capital of France?', 100) });
  }),
  tool('test_input_required_result_list_roots', "Asks for the client's roots (MRTR roots/list)", (_args, context) => {
    const list = roots(context, 'client_roots');
    return list !== undefined ? `Roots: ${list.map((root) => root.uri).join(', ')}` : inputRequired({ client_roots: listRoots() });
  }),
  tool('test_input_required_result_request_state', 'Asks for a confirmation and carries requestState across the round', (_args, context) => {
    if (context.requestState === 'awaiting-confirmation' && accepted(context, 'confirm') !== undefined) return 'Confirmed: state-ok';
    return inputRequired({ confirm: CONFIRM_REQUEST }, 'awaiting-confirmation');
  }),
  tool('test_input_required_result_multiple_inputs', 'Asks for three inputs at once: elicitation, sampling and roots', (_args, context) => {
    const name = accepted(context, 'user_name')?.name;
    const greeting = samplingText(context, 'greeting');
    const list = roots(context, 'client_roots');
    if (context.requestState === 'three-inputs' && typeof name === 'string' && greeting !== undefined && list !== undefined) {
      return `${greeting} ${name} (${list.length} roots)`;
    }
    return inputRequired({ user_name: NAME_REQUEST, greeting: sample('Generate a greeting', 50), client_roots: listRoots() }, 'three-inputs');
  }),
  tool('test_input_required_result_multi_round', 'Asks two questions, one round each', (_args, context) => {
    const color = accepted(context, 'step2')?.color;
    if (context.requestState === 'round-2' && typeof color === 'string') return `Your favorite color is ${color}`;
    if (context.requestState === 'round-1' && typeof accepted(context, 'step1')?.name === 'string') {
      return inputRequired({ step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }, ['color']) }, 'round-2');
    }
    return inputRequired({ step1: elicit('Step 1: What is your name?', { name: { type: 'string' } }, ['name']) }, 'round-1');
  }),
  tool('test_input_required_result_tampered_state', 'Carries sealed requestState; an edited state is refused', (_args, context) => {
    if (context.requestState === 'sealed' && accepted(context, 'confirm') !== undefined) return 'state verified';
    return inputRequired({ confirm: CONFIRM_REQUEST }, 'sealed');
  }),
  tool('test_input_required_result_capabilities', 'Asks only for what the client declared it can give', (_args, context) => {
    const declared = context.clientCapabilities;
    if (context.inputResponses !== undefined) return 'Inputs received';
    const requests: Record<string, InputRequest> = {};
    if (declared.sampling !== undefined) requests.sampled = sample('Say hello', 20);
    if (declared.elicitation !== undefined) requests.elicited = NAME_REQUEST;
    if (declared.roots !== undefined) requests.rooted = listRoots();
    return Object.keys(requests).length > 0 ? inputRequired(requests) : 'The client declared no input capability';
  }),
];

export interface EraConformance {
  modern: ModernServer;
  /** A handshake-era server for one HTTP session, on the same fixtures. */
  createLegacy(channel?: MessageContext): FeatureServer;
}

export function createEraConformance(): EraConformance {
  let modern: ModernServer | undefined;
  const diagnostics: EraTool[] = [
    tool('test_missing_capability', 'Needs sampling: refused with -32021 when the client did not declare it', (_args, context) => {
      const text = samplingText(context, 'needs_sampling');
      return text !== undefined ? `Sampled: ${text}` : inputRequired({ needs_sampling: sample('Say something', 10) });
    }),
    tool('test_streaming_elicitation', 'Answers with an InputRequiredResult on its response stream, never a request', (_args, context) => {
      context.progress(0, 1, 'thinking');
      const name = accepted(context, 'user_name')?.name;
      return typeof name === 'string' ? `Hello, ${name}!` : inputRequired({ user_name: NAME_REQUEST });
    }),
    tool('test_logging_tool', 'Logs at info level: only a request that set _meta logLevel sees it', (_args, context) => {
      context.log('info', 'test_logging_tool ran');
      return 'logged (if asked to)';
    }),
    tool('test_trigger_tool_change', 'Announces a tools list change on listen streams', () => {
      modern?.notifyListChanged('tools');
      return 'tools list changed';
    }),
    tool('test_trigger_prompt_change', 'Announces a prompts list change on listen streams', () => {
      modern?.notifyListChanged('prompts');
      return 'prompts list changed';
    }),
    tool('test_custom_header', 'Echoes its region, which travels in the Mcp-Param-Region header too', (args) => `Region: ${String(args.region)}`, {
      type: 'object',
      properties: { region: { type: 'string', description: 'A region name, mirrored into Mcp-Param-Region', 'x-mcp-header': 'Region' } },
      required: ['region'],
    }),
  ];
  const schemaTool = tool('json_schema_2020_12_tool', 'Tool with JSON Schema 2020-12 features', (args) => `Received: ${JSON.stringify(args)}`, JSON_SCHEMA_2020_12);
  const tools = [
    ...CONFORMANCE_TOOLS.filter((fixture) => fixture.info.name !== schemaTool.info.name).map(eraToolOf),
    schemaTool,
    ...MRTR_TOOLS,
    ...diagnostics,
  ];
  const prompts: EraPrompt[] = [...CONFORMANCE_PROMPTS.map(eraPromptOf), MRTR_PROMPT];
  const complete = (_ref: unknown, argument: { value: string }) => COMPLETIONS.filter((value) => value.startsWith(argument.value));
  modern = new ModernServer({
    serverInfo: SERVER_INFO,
    tools,
    resources: CONFORMANCE_RESOURCES,
    resourceTemplates: CONFORMANCE_TEMPLATES,
    prompts,
    complete,
    listChanged: true,
    cache: { ttlMs: 0, cacheScope: 'public' },
  });
  return {
    modern,
    createLegacy: (channel) =>
      new FeatureServer({
        serverInfo: SERVER_INFO,
        // The 2025 fixtures as they are (they ask the client with real requests), the era tools bridged.
        tools: [...CONFORMANCE_TOOLS, ...[...MRTR_TOOLS, ...diagnostics].map(legacyTool)],
        resources: CONFORMANCE_RESOURCES,
        resourceTemplates: CONFORMANCE_TEMPLATES,
        prompts: prompts.map(legacyPrompt),
        complete,
        channel,
      }),
  };
}

export function eraPromptOf(prompt: Prompt): EraPrompt {
  return { name: prompt.name, description: prompt.description, arguments: prompt.arguments, get: (args) => prompt.get(args) };
}

export const MRTR_PROMPT: EraPrompt = {
  name: 'test_input_required_result_prompt',
  description: 'A prompt that asks the client for its context first (MRTR in prompts/get)',
  get: (_args, context) => {
    const value = accepted(context, 'user_context')?.context;
    if (typeof value !== 'string') return inputRequired({ user_context: elicit('What context should the prompt use?', { context: { type: 'string' } }, ['context']) });
    return [{ role: 'user', content: { type: 'text', text: `Use this context: ${value}` } }];
  },
};

/** SEP-1613 and SEP-2106: $schema, $defs with $anchor, composition and conditional keywords. */
const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};
