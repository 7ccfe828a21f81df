// The same tools and prompts for a handshake-era client. A legacy session has no MRTR: the server
// asks the client through real server-to-client requests (elicitation/create, sampling/createMessage,
// roots/list) on the open connection and waits. So when an era tool answers InputRequiredResult,
// the bridge sends each embedded request with the session's `request`, collects the answers and
// runs the tool again with them (and with its own state, which never leaves the process here,
// so it needs no seal) — the learner's tool is written once, for both eras.

import type { CallToolResult } from '../mcp.ts';
import type { FeatureTool, Prompt, ToolContext } from '../features/types.ts';
import { isInputRequired, missingCapabilities, requiredCapabilityOf, type EraContext, type EraPrompt, type EraTool, type InputResponses } from './types.ts';

/** More rounds than this is a tool that never finishes asking. */
export const MAX_LEGACY_ROUNDS = 8;

export function legacyTool(tool: EraTool): FeatureTool {
  return {
    info: tool.info,
    async run(args, context): Promise<CallToolResult | string> {
      let inputResponses: InputResponses | undefined;
      let requestState: string | undefined;
      for (let round = 0; round < MAX_LEGACY_ROUNDS; round++) {
        const output = await tool.run(args, eraContextOf(context, inputResponses, requestState));
        if (!isInputRequired(output)) return output;
        const answers: InputResponses = {};
        for (const [key, request] of Object.entries(output.inputRequests ?? {})) {
          const missing = missingCapabilities(requiredCapabilityOf(request), context.clientCapabilities);
          if (missing !== undefined) throw new Error(`${request.method} needs the client capability ${Object.keys(missing).join(', ')}, which initialize did not declare`);
          answers[key] = (await context.request(request.method, request.params ?? {})) as Record<string, unknown>;
        }
        inputResponses = answers;
        requestState = output.requestState;
      }
      throw new Error(`tool ${tool.info.name} still asked for input after ${MAX_LEGACY_ROUNDS} rounds`);
    },
  };
}

/**
 * A prompt for the legacy FeatureServer, whose prompts/get has no way to reach the client: a
 * prompt that needs input says so as an error there (it is served fully in the modern era).
 */
export function legacyPrompt(prompt: EraPrompt): Prompt {
  const noInput = new AbortController().signal;
  return {
    name: prompt.name,
    description: prompt.description,
    arguments: prompt.arguments,
    async get(args) {
      const output = await prompt.get(args, {
        era: 'legacy',
        signal: noInput,
        progressToken: undefined,
        progress: () => {},
        log: () => {},
        clientCapabilities: {},
        inputResponses: undefined,
        requestState: undefined,
      });
      if (isInputRequired(output)) throw new Error(`prompt ${prompt.name} needs input from the client, which only the 2026-07-28 era can ask for in prompts/get`);
      return output;
    },
  };
}

function eraContextOf(context: ToolContext, inputResponses: InputResponses | undefined, requestState: string | undefined): EraContext {
  return {
    era: 'legacy',
    signal: context.signal,
    progressToken: context.progressToken,
    progress: (progress, total, message) => context.progress(progress, total, message),
    log: (level, data, logger) => context.log(level, data, logger),
    clientCapabilities: context.clientCapabilities,
    inputResponses,
    requestState,
  };
}
