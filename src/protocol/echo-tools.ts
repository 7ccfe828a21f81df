// The echo server's tools: the MCP "hello world" plus a few tools that each make one protocol
// behaviour visible (out-of-order answers, failure as data, a destructive annotation).
// Descriptions and schemas are written for a model to read: every property says what it is,
// required ones are listed, optional ones carry their default.

import type { Implementation } from './mcp.ts';
import type { ServerTool } from './server.ts';

export const ECHO_SERVER_INFO: Implementation = { name: 'mcp-echo-server', version: '1.0.0' };

export const ECHO_SERVER_INSTRUCTIONS =
  'A test server for MCP clients. Nothing here touches the outside world: delete_file only says what it would delete.';

export const DELAY_ECHO_DEFAULT_MS = 500;
export const DELAY_ECHO_MAX_MS = 10_000;
export const FAIL_DEFAULT_MESSAGE = 'the fail tool always fails (on purpose)';

export function createEchoTools(): ServerTool[] {
  return [echo, add, delayEcho, fail, deleteFile];
}

const echo: ServerTool = {
  info: {
    name: 'echo',
    description: 'Echo the given text back verbatim.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to send back, unchanged.' } },
      required: ['text'],
      additionalProperties: false,
    },
    annotations: { title: 'Echo', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  run: (args) => args.text as string,
};

// Deliberately named like the chapter's local `add` tool: bridging this server into the same
// registry collides unless remote tools get a namespace prefix such as mcp__echo__add.
const add: ServerTool = {
  info: {
    name: 'add',
    description: 'Add two numbers and return the sum as text.',
    inputSchema: {
      type: 'object',
      properties: {
        a: { type: 'number', description: 'The first addend.' },
        b: { type: 'number', description: 'The second addend.' },
      },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    annotations: { title: 'Add', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  run: (args) => String((args.a as number) + (args.b as number)),
};

// Answers after a pause, so two calls sent back to back can come back in the opposite order:
// only the id pairs a response with its request.
const delayEcho: ServerTool = {
  info: {
    name: 'delay_echo',
    description:
      'Echo the given text back verbatim after waiting ms milliseconds. Useful to see responses arrive out of order.',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The text to send back, unchanged.' },
        ms: {
          type: 'integer',
          description: `How long to wait before answering, in milliseconds (0 to ${DELAY_ECHO_MAX_MS}).`,
          minimum: 0,
          maximum: DELAY_ECHO_MAX_MS,
          default: DELAY_ECHO_DEFAULT_MS,
        },
      },
      required: ['text'],
      additionalProperties: false,
    },
    annotations: { title: 'Delayed echo', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  run: async (args, signal) => {
    await sleep((args.ms as number | undefined) ?? DELAY_ECHO_DEFAULT_MS, signal);
    return args.text as string;
  },
};

// Always throws. The server must turn that into a result with isError: true, never a JSON-RPC error.
const fail: ServerTool = {
  info: {
    name: 'fail',
    description: 'Always fail with the given message. Shows a tool failure reported as data (isError: true).',
    inputSchema: {
      type: 'object',
      properties: {
        message: {
          type: 'string',
          description: 'The error message the failure should carry.',
          default: FAIL_DEFAULT_MESSAGE,
        },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Fail', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  run: (args) => {
    throw new Error((args.message as string | undefined) ?? FAIL_DEFAULT_MESSAGE);
  },
};

// Carries the annotations a client uses to ask the user before running, but deletes nothing.
const deleteFile: ServerTool = {
  info: {
    name: 'delete_file',
    description:
      'Pretend to delete a file: nothing is deleted, the answer only says what would be. Demonstrates the destructiveHint annotation.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Path of the file that would be deleted.' } },
      required: ['path'],
      additionalProperties: false,
    },
    annotations: {
      title: 'Delete file (simulated)',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  run: (args) => `would delete ${args.path as string}`,
};

/** Resolves after `ms`, or rejects early when the call is cancelled, so no timer outlives it. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('cancelled'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
