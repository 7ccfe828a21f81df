// One agent turn, driven by a scripted model: the model proposes a call, the registry's tier
// decides whether it runs at once, runs while shown in the transcript (suggest: no waiting), or waits for the user; the call runs through
// the registry; its output (or the refusal) goes back to the model as an observation; and so on
// until the final answer. Everything the loop needs from outside is injected, so the same loop
// runs the reference registry on the page and the learner's in their worker.

import { TOOL_ERROR_PREFIX } from '../../protocol/mcp-result-to-text.ts';
import type { RiskTier, ToolOutcome } from '../../protocol/registry.ts';
import { quoteObservations, type AgentScript } from './agent-script.ts';
import { resolveCall, type ToolOrigin, type ToolRow } from '../../sandbox/tool-table.ts';

/**
 * - ok: the tool's output.
 * - tool-error: the tool ran and failed (isError: true): the model reads the tool's own words.
 * - exception: the call itself failed (a JSON-RPC error, a timeout, a closed connection): the
 *   model only gets an exception string.
 * - unknown-tool: nothing in the registry by that name; nothing was sent.
 * - denied: the user said no; nothing was sent.
 */
export type ObservationKind = 'ok' | 'tool-error' | 'exception' | 'unknown-tool' | 'denied';

/** What the gate did: ran at once (auto), showed it and ran it (suggest), or asked (approve). */
export type GateDecision = 'auto' | 'suggested' | 'approved' | 'denied';

export type TranscriptEntry =
  | { type: 'user'; text: string }
  | { type: 'model'; text: string }
  | { type: 'call'; call: number; tool: string; server: string | null; name: string | null; origin: ToolOrigin | null; tier: RiskTier | null; args: Record<string, unknown> }
  | { type: 'decision'; call: number; decision: GateDecision }
  | { type: 'observation'; call: number; kind: ObservationKind; text: string }
  | { type: 'final'; text: string }
  | { type: 'stopped'; reason: string };

export interface ApprovalRequest {
  call: number;
  name: string;
  origin: ToolOrigin;
  args: Record<string, unknown>;
}

export interface AgentLoopDeps {
  /** The registry's tools right now. */
  rows(): readonly ToolRow[];
  /** The prefix the merge used ('' for none): how a `server:` call finds a tool whose source is not recorded. */
  prefix: string;
  /** registry.execute: never rejects, failures come back as `{ ok: false }`. */
  execute(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** Ask the user; true runs the call. */
  approve(request: ApprovalRequest): Promise<boolean>;
  /** What the model reads after a refusal (the user's language). */
  refusal(request: ApprovalRequest): string;
  /** The same for a `server:` call that matches no registered tool. */
  notRegistered(call: { tool: string; server: string }): string;
  emit(entry: TranscriptEntry): void;
  /** Around each execution, so the caller can tell which frames a call caused. */
  callStarted?(call: number, row: ToolRow): void;
  callEnded?(call: number): void;
  /** True once the turn should stop (the view was reset): no further call is made. */
  cancelled?(): boolean;
}

export function classifyOutcome(outcome: ToolOutcome, known: boolean): ObservationKind {
  if (!known) return 'unknown-tool';
  if (!outcome.ok) return /^Unknown tool "/.test(outcome.text) ? 'unknown-tool' : 'exception';
  return outcome.text.startsWith(TOOL_ERROR_PREFIX) ? 'tool-error' : 'ok';
}

export async function runAgentTurn(script: AgentScript, deps: AgentLoopDeps): Promise<TranscriptEntry[]> {
  const transcript: TranscriptEntry[] = [];
  const emit = (entry: TranscriptEntry) => {
    transcript.push(entry);
    deps.emit(entry);
  };
  const observations: string[] = [];
  let call = 0;
  emit({ type: 'user', text: script.user });
  for (const turn of script.turns) {
    if (turn.say) emit({ type: 'model', text: turn.say });
    for (const proposed of turn.calls) {
      if (deps.cancelled?.()) {
        emit({ type: 'stopped', reason: 'cancelled' });
        return transcript;
      }
      call++;
      const row = resolveCall(proposed, deps.rows(), deps.prefix);
      const args = proposed.args;
      emit({ type: 'call', call, tool: proposed.tool, server: proposed.server ?? null, name: row?.name ?? (proposed.server === undefined ? proposed.tool : null), origin: row?.origin ?? null, tier: row?.tier ?? null, args });
      const observe = (kind: ObservationKind, text: string) => {
        observations.push(text);
        emit({ type: 'observation', call, kind, text });
      };
      if (row === null && proposed.server !== undefined) {
        observe('unknown-tool', deps.notRegistered({ tool: proposed.tool, server: proposed.server }));
        continue;
      }
      if (row !== null) {
        const request: ApprovalRequest = { call, name: row.name, origin: row.origin, args };
        if (row.tier === 'approve') {
          const yes = await deps.approve(request);
          emit({ type: 'decision', call, decision: yes ? 'approved' : 'denied' });
          if (!yes) {
            observe('denied', deps.refusal(request));
            continue;
          }
        } else {
          emit({ type: 'decision', call, decision: row.tier === 'suggest' ? 'suggested' : 'auto' });
        }
        deps.callStarted?.(call, row);
      }
      const name = row?.name ?? proposed.tool;
      let outcome: ToolOutcome;
      try {
        outcome = await deps.execute(name, args);
      } finally {
        if (row !== null) deps.callEnded?.(call);
      }
      observe(classifyOutcome(outcome, row !== null), outcome.text);
    }
  }
  emit({ type: 'final', text: quoteObservations(script.final, observations) });
  return transcript;
}
