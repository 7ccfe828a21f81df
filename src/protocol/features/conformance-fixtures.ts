// The fixture set the official conformance suite (@modelcontextprotocol/conformance 0.1.16) expects
// of a server: each scenario's text names a tool, resource or prompt and what it must return.
// Served by `npm run mcp-http -- --tools=conformance`.

import type { MessageContext, FeatureTool, Prompt, Resource, ResourceTemplate } from './types.ts';
import { FeatureServer } from './feature-server.ts';

/** A 1x1 red PNG. */
const RED_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV file with a 44-byte header and two silent 8-bit samples. */
const SILENT_WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQIAAACAgA==';

const NO_ARGUMENTS = { type: 'object', properties: {} };
const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

function tool(name: string, description: string, run: FeatureTool['run'], inputSchema: Record<string, unknown> = NO_ARGUMENTS): FeatureTool {
  return { info: { name, description, inputSchema }, run };
}

const ELICITATION_DEFAULTS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
};

const ELICITATION_ENUMS_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Untitled single-select', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Titled single-select',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: { type: 'string', description: 'Legacy titled enum', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', description: 'Untitled multi-select', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      description: 'Titled multi-select',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

async function elicit(context: Parameters<FeatureTool['run']>[1], message: string, requestedSchema: unknown): Promise<string> {
  if (context.clientCapabilities.elicitation === undefined) throw new Error('the client did not declare the elicitation capability');
  const answer = (await context.request('elicitation/create', { message, requestedSchema })) as { action?: unknown; content?: unknown };
  return `Elicitation completed: action=${String(answer.action)}, content=${JSON.stringify(answer.content ?? {})}`;
}

export const CONFORMANCE_TOOLS: readonly FeatureTool[] = [
  tool('test_simple_text', 'Returns a simple text response', () => 'This is a simple text response for testing.'),
  tool('test_image_content', 'Returns an image', () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] })),
  tool('test_audio_content', 'Returns audio', () => ({ content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }] })),
  tool('test_embedded_resource', 'Returns an embedded resource', () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  })),
  tool('test_multiple_content_types', 'Returns text, an image and a resource', () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ],
  })),
  tool('test_tool_with_logging', 'Logs three messages while it runs', async (_args, context) => {
    context.log('info', 'Tool execution started');
    await delay(50, context.signal);
    context.log('info', 'Tool processing data');
    await delay(50, context.signal);
    context.log('info', 'Tool execution completed');
    return 'Logging test completed';
  }),
  tool('test_error_handling', 'Always fails', () => {
    throw new Error('This tool intentionally returns an error for testing');
  }),
  tool('test_tool_with_progress', 'Reports progress 0, 50, 100 of 100', async (_args, context) => {
    context.progress(0, 100);
    await delay(50, context.signal);
    context.progress(50, 100);
    await delay(50, context.signal);
    context.progress(100, 100);
    return 'Progress test completed';
  }),
  tool(
    'test_sampling',
    'Asks the client for an LLM completion',
    async (args, context) => {
      if (context.clientCapabilities.sampling === undefined) throw new Error('the client did not declare the sampling capability');
      const answer = (await context.request('sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
        maxTokens: 100,
      })) as { content?: { text?: unknown } };
      return `LLM response: ${String(answer.content?.text ?? '')}`;
    },
    { type: 'object', properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } }, required: ['prompt'] },
  ),
  tool(
    'test_elicitation',
    'Asks the user for input through the client',
    (args, context) =>
      elicit(context, String(args.message), {
        type: 'object',
        properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
        required: ['username', 'email'],
      }),
    { type: 'object', properties: { message: { type: 'string', description: 'The message to show the user' } }, required: ['message'] },
  ),
  tool('test_elicitation_sep1034_defaults', 'Elicitation with a default for every primitive type', (_args, context) =>
    elicit(context, 'Please review and update the form fields with defaults', ELICITATION_DEFAULTS_SCHEMA),
  ),
  tool('test_elicitation_sep1330_enums', 'Elicitation with all five enum variants', (_args, context) => elicit(context, 'Please select options from the enum fields', ELICITATION_ENUMS_SCHEMA)),
  tool('test_reconnection', 'Closes its SSE connection mid-call; the result comes after the client resumes', async (_args, context) => {
    context.closeConnection();
    await delay(100, context.signal);
    return 'Reconnection test completed successfully';
  }),
  tool('json_schema_2020_12_tool', 'Tool with JSON Schema 2020-12 features', (args) => `Received: ${JSON.stringify(args)}`, {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
    additionalProperties: false,
  }),
];

export const CONFORMANCE_RESOURCES: readonly Resource[] = [
  {
    uri: 'test://static-text',
    name: 'Static text',
    description: 'A static text resource',
    mimeType: 'text/plain',
    read: () => [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  },
  {
    uri: 'test://static-binary',
    name: 'Static binary',
    description: 'A static binary resource (a PNG)',
    mimeType: 'image/png',
    read: () => [{ uri: 'test://static-binary', mimeType: 'image/png', blob: RED_PIXEL_PNG }],
  },
  {
    uri: 'test://watched-resource',
    name: 'Watched resource',
    description: 'A resource to subscribe to',
    mimeType: 'text/plain',
    read: () => [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content.' }],
  },
];

export const CONFORMANCE_TEMPLATES: readonly ResourceTemplate[] = [
  {
    uriTemplate: 'test://template/{id}/data',
    name: 'Template data',
    description: 'Data for any id',
    mimeType: 'application/json',
    read: (uri, { id }) => [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
  },
];

export const CONFORMANCE_PROMPTS: readonly Prompt[] = [
  { name: 'test_simple_prompt', description: 'A simple prompt without arguments', get: () => [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    get: ({ arg1, arg2 }) => [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: ({ resourceUri }) => [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri!, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  },
  {
    name: 'test_prompt_with_image',
    description: 'A prompt with an image',
    get: () => [
      { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  },
];

const COMPLETIONS = ['paris', 'park', 'party', 'test', 'testing', 'tester'];

export function createConformanceServer(channel?: MessageContext): FeatureServer {
  return new FeatureServer({
    serverInfo: { name: 'mcp-playground-conformance', version: '0.1.0' },
    tools: CONFORMANCE_TOOLS,
    resources: CONFORMANCE_RESOURCES,
    resourceTemplates: CONFORMANCE_TEMPLATES,
    prompts: CONFORMANCE_PROMPTS,
    complete: (_ref, argument) => COMPLETIONS.filter((value) => value.startsWith(argument.value)),
    channel,
  });
}
