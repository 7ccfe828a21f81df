// The local tool registry: one table of tools the model may call, whatever their origin. A remote
// MCP tool, once registered, is indistinguishable from a local one: same spec, same risk tiers,
// same "failure is data" execution.

import type { JsonSchema } from './mcp.ts';
import { paramsToSchema } from './schema-to-params.ts';

/** How much a call needs a human: run it, run it while showing it (no waiting; the user can undo it), or wait for an explicit yes. */
export type RiskTier = 'auto' | 'suggest' | 'approve';
export const RISK_TIERS: readonly RiskTier[] = ['auto', 'suggest', 'approve'];

export interface ToolParam {
  name: string;
  /** A JSON Schema type name ('string', 'integer', …), or 'any' when the schema says something richer. */
  type: string;
  required: boolean;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  /** The value may also be null. */
  nullable?: boolean;
  /** For arrays: the element type, when the schema gives a simple one. */
  items?: string;
}

export type ToolSource = { kind: 'local' } | { kind: 'mcp'; server?: string; remoteName: string };

export interface ToolSpec {
  name: string;
  description: string;
  parameters: ToolParam[];
  risk: RiskTier;
  source?: ToolSource;
}

export type ToolExecutor = (args: Record<string, unknown>) => Promise<string> | string;

/** Execution never throws: a failure is text the model can read and recover from. */
export type ToolOutcome = { ok: true; text: string } | { ok: false; text: string };

/** What a model API expects per tool. */
export interface ModelTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export class DuplicateToolError extends Error {
  override name = 'DuplicateToolError';
  constructor(
    readonly toolName: string,
    message = `A tool named "${toolName}" is already registered. Tool names must be unique; ` +
      `register this one under another name (for remote tools, pass a prefix such as "mcp__server__").`,
  ) {
    super(message);
  }
}

interface Entry {
  spec: ToolSpec;
  executor: ToolExecutor;
}

export class ToolRegistry {
  private readonly tools = new Map<string, Entry>();

  /** Add a tool. A name already taken throws DuplicateToolError: silently replacing a tool would change what the model runs. */
  register(spec: ToolSpec, executor: ToolExecutor): void {
    if (typeof spec.name !== 'string' || spec.name === '') throw new TypeError('A tool needs a non-empty name.');
    if (!RISK_TIERS.includes(spec.risk)) throw new TypeError(`Tool "${spec.name}": risk must be one of ${RISK_TIERS.join(', ')}, not ${JSON.stringify(spec.risk)}.`);
    if (this.tools.has(spec.name)) throw new DuplicateToolError(spec.name);
    // Keep a private copy so later edits to the caller's object cannot change a registered tool.
    this.tools.set(spec.name, { spec: copySpec(spec), executor });
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  get(name: string): ToolSpec | undefined {
    const entry = this.tools.get(name);
    return entry && copySpec(entry.spec);
  }

  /** Every tool, in registration order. */
  list(): ToolSpec[] {
    return [...this.tools.values()].map((entry) => copySpec(entry.spec));
  }

  /** The tools as a model sees them: parameters turned back into a JSON Schema. */
  modelTools(): ModelTool[] {
    return [...this.tools.values()].map(({ spec }) => ({
      name: spec.name,
      description: spec.description,
      input_schema: paramsToSchema(spec.parameters),
    }));
  }

  /** Run a tool. Unknown tools, throws and rejections all come back as `{ ok: false, text }`. */
  async execute(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    const entry = this.tools.get(name);
    if (entry === undefined) {
      const known = [...this.tools.keys()];
      return { ok: false, text: `Unknown tool "${name}". Available tools: ${known.length > 0 ? known.join(', ') : '(none)'}.` };
    }
    try {
      const output = await entry.executor(args);
      return { ok: true, text: typeof output === 'string' ? output : String(JSON.stringify(output)) };
    } catch (error) {
      return { ok: false, text: `Tool "${name}" failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

function copySpec(spec: ToolSpec): ToolSpec {
  return { ...spec, parameters: spec.parameters.map((param) => ({ ...param })), ...(spec.source ? { source: { ...spec.source } } : {}) };
}
