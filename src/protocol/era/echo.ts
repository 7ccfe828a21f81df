// The echo server, dual-era: the same echo tools (the exercise-4 reference McpServer keeps
// serving the handshake era, unchanged) plus, in the 2026-07-28 era, `greet`, whose only job is
// to show one MRTR round: it answers InputRequiredResult asking for a name (elicitation/create),
// and the client's retry with inputResponses gets the greeting.

import type { Implementation } from '../mcp.ts';
import type { ServerTool } from '../server.ts';
import { DUAL_ERA_PROTOCOL_VERSIONS } from './meta.ts';
import { ModernServer } from './modern-server.ts';
import { inputRequired, type EraTool } from './types.ts';

/** A handshake-era tool in the modern era; it reports started/finished progress when asked, as over HTTP. */
export function eraToolOf(tool: ServerTool): EraTool {
  return {
    info: tool.info,
    async run(args, context) {
      context.progress(0, 1, 'started');
      const output = await tool.run(args, context.signal);
      context.progress(1, 1, 'finished');
      return output;
    },
  };
}

export const GREET_TOOL: EraTool = {
  info: {
    name: 'greet',
    description: 'Greet the user by name. Asks the user for their name first (2026-07-28: an InputRequiredResult with elicitation/create).',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { title: 'Greet', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  run(_args, context) {
    const answer = context.inputResponses?.name;
    const content = answer?.action === 'accept' ? (answer.content as { name?: unknown } | undefined) : undefined;
    if (typeof content?.name === 'string' && content.name !== '') return `Hello, ${content.name}!`;
    if (answer !== undefined && answer.action !== 'accept') return 'Hello, stranger!';
    return inputRequired({
      name: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Your name' } }, required: ['name'] },
        },
      },
    });
  },
};

export interface EchoModernOptions {
  serverInfo: Implementation;
  instructions?: string;
  tools: readonly ServerTool[];
  /** Default: both eras' versions (a dual-era server); a modern-only server names only its own. */
  supportedVersions?: readonly string[];
}

/** The echo server's modern half: its tools, greet, and caching hints (the tool list never changes). */
export function createEchoModernServer(options: EchoModernOptions): ModernServer {
  return new ModernServer({
    serverInfo: options.serverInfo,
    instructions: options.instructions,
    tools: [...options.tools.map(eraToolOf), GREET_TOOL],
    logging: false,
    cache: { ttlMs: 60_000, cacheScope: 'public' },
    supportedVersions: options.supportedVersions ?? DUAL_ERA_PROTOCOL_VERSIONS,
  });
}
