// The "features" tool set: a small server that shows each server feature of MCP (2025-11-25) doing
// something a learner can watch. Served by `npm run mcp-http -- --tools=features` on every host,
// and what the live panel's Server features tabs talk to.
//
//   resources  demo://counter (text, changes when the `increment` tool runs: every session
//              subscribed to it gets notifications/resources/updated on its GET stream),
//              demo://about (static)
//   prompts    explain (argument `topic` required, `audience` optional)
//   logging    the `log_levels` tool logs once at each of five levels; logging/setLevel filters
//   progress   the `slow_count` tool reports notifications/progress for each step
//   sampling   the `ask_model` tool sends sampling/createMessage to the client and returns what
//              came back, or what the refusal said
//
// One DemoWorld per server process: the counter is shared by every session, as a file on a real
// server would be, so a change made in one session reaches the subscribers of every other.

import { FeatureServer } from './feature-server.ts';
import type { FeatureTool, MessageContext, Prompt, Resource } from './types.ts';

export const DEMO_SERVER_INFO = { name: 'mcp-playground-features', version: '0.1.0' };
export const COUNTER_URI = 'demo://counter';
export const ABOUT_URI = 'demo://about';
/** The levels `log_levels` uses, lowest first: after logging/setLevel only those at or above it arrive. */
export const DEMO_LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error'] as const;
/** Sessions whose servers are kept for resource updates; older ones are dropped (their sessions have long ended). */
const MAX_SERVERS = 64;

export interface DemoWorldOptions {
  /** Between two progress steps of `slow_count`. Default 150 ms: slow enough to watch the bar move. */
  stepMs?: number;
}

export interface DemoWorld {
  /** A fresh server for one session (the HTTP handler's factory); `channel` is its GET stream. */
  createServer(channel?: MessageContext): FeatureServer;
  readonly counter: number;
}

const NO_ARGUMENTS = { type: 'object', properties: {} };

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

export function createDemoWorld(options: DemoWorldOptions = {}): DemoWorld {
  const stepMs = options.stepMs ?? 150;
  let counter = 0;
  const servers: FeatureServer[] = [];

  const resources: Resource[] = [
    {
      uri: COUNTER_URI,
      name: 'Counter',
      description: 'A number the increment tool raises; subscribe to hear when it changes',
      mimeType: 'text/plain',
      read: () => [{ uri: COUNTER_URI, mimeType: 'text/plain', text: `count: ${counter}` }],
    },
    {
      uri: ABOUT_URI,
      name: 'About this server',
      description: 'What each feature of this server shows',
      mimeType: 'text/markdown',
      read: () => [{ uri: ABOUT_URI, mimeType: 'text/markdown', text: '# Feature demo\nResources, prompts, logging, progress and sampling, one tool or entry each.' }],
    },
  ];

  const tools: FeatureTool[] = [
    {
      info: { name: 'increment', description: `Adds one to ${COUNTER_URI}; subscribers hear about it`, inputSchema: NO_ARGUMENTS },
      run: () => {
        counter++;
        // resourceUpdated sends only to sessions that subscribed to this URI (FeatureServer keeps the list).
        for (const server of servers) server.resourceUpdated(COUNTER_URI);
        return `count is now ${counter}`;
      },
    },
    {
      info: { name: 'log_levels', description: `Logs one message at each of ${DEMO_LOG_LEVELS.join(', ')}`, inputSchema: NO_ARGUMENTS },
      run: (_args, context) => {
        // FeatureServer drops the ones below the level the client set with logging/setLevel.
        for (const level of DEMO_LOG_LEVELS) context.log(level, `a ${level} message`, 'demo');
        return `logged at ${DEMO_LOG_LEVELS.length} levels`;
      },
    },
    {
      info: {
        name: 'slow_count',
        description: 'Counts to `steps`, one step at a time, reporting progress (ask with _meta.progressToken)',
        inputSchema: { type: 'object', properties: { steps: { type: 'integer', minimum: 1, maximum: 20 } } },
      },
      run: async (args, context) => {
        const steps = typeof args.steps === 'number' ? args.steps : 5;
        for (let step = 1; step <= steps; step++) {
          await delay(stepMs, context.signal);
          if (context.signal.aborted) return 'cancelled';
          context.progress(step, steps, `step ${step} of ${steps}`);
        }
        return `counted to ${steps}`;
      },
    },
    {
      info: {
        name: 'ask_model',
        description: "Asks the client's model a question (sampling/createMessage); the user may refuse",
        inputSchema: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
      },
      run: async (args, context) => {
        // The spec: a server MUST NOT send sampling to a client that did not declare the capability.
        if (context.clientCapabilities.sampling === undefined) throw new Error('the client did not declare the sampling capability');
        let answer: { content?: { text?: unknown }; model?: unknown };
        try {
          answer = (await context.request('sampling/createMessage', {
            messages: [{ role: 'user', content: { type: 'text', text: String(args.question) } }],
            systemPrompt: 'Answer in one short sentence.',
            maxTokens: 100,
          })) as typeof answer;
        } catch (error) {
          // A refusal is an error response (-1, "User rejected sampling request"): the tool fails, it does not crash.
          throw new Error(`no answer from the client's model: ${error instanceof Error ? error.message : String(error)}`);
        }
        return `${String(answer.model ?? 'the model')} answered: ${String(answer.content?.text ?? '')}`;
      },
    },
  ];

  const prompts: Prompt[] = [
    {
      name: 'explain',
      description: 'Asks for an explanation of a topic, for a given audience',
      arguments: [
        { name: 'topic', description: 'What to explain', required: true },
        { name: 'audience', description: 'Who it is for (default: a beginner)' },
      ],
      get: ({ topic, audience }) => [
        { role: 'user', content: { type: 'text', text: `Explain ${topic} to ${audience ?? 'a beginner'} in three sentences.` } },
      ],
    },
  ];

  return {
    get counter() {
      return counter;
    },
    createServer(channel) {
      const server = new FeatureServer({ serverInfo: DEMO_SERVER_INFO, tools, resources, prompts, channel });
      servers.push(server);
      if (servers.length > MAX_SERVERS) servers.shift();
      return server;
    },
  };
}
