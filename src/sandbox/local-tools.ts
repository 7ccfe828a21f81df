// The chapter's local tool registry before any MCP server is bridged in: get_time, get_weather and
// add (ch08's tools) plus write_note and delete_file (the writers ch18's risk tiers are about).
// The echo server also has an `add` (and a `delete_file`), which is the name clash the lab and the
// Chapter loop view show. Used on the page for the reference and inside the learner worker for
// the learner's code, so both registries start from exactly the same table.

import type { RiskTier, ToolParam, ToolRegistry, ToolSpec } from '../protocol/registry.ts';
import type { RegistryEntryView } from './client-driver.ts';

type RegistryModule = { ToolRegistry: new () => ToolRegistry };

interface LocalTool {
  spec: ToolSpec;
  run(args: Record<string, unknown>): string;
}

const local = (name: string, description: string, risk: RiskTier, parameters: ToolParam[], run: LocalTool['run']): LocalTool => ({
  spec: { name, description, parameters, risk, source: { kind: 'local' } },
  run,
});

const NUMBER = (name: string, description: string): ToolParam => ({ name, type: 'number', required: true, description });
const STRING = (name: string, description: string): ToolParam => ({ name, type: 'string', required: true, description });

// Tiers follow ch18: reading is `auto`; writing something the user can see and undo is `suggest`;
// destroying is `approve`. The local tools never touch the outside world (the page has no files).
const LOCAL_TOOLS: readonly LocalTool[] = [
  local('get_time', 'The current time (local tool).', 'auto', [], () => new Date().toISOString()),
  local('get_weather', 'The weather in a city (local tool).', 'auto', [STRING('city', 'The city.')], (args) => `sunny in ${String(args.city)}`),
  local('add', 'Add two numbers (local tool).', 'auto', [NUMBER('a', 'The first addend.'), NUMBER('b', 'The second addend.')], (args) => String(Number(args.a) + Number(args.b))),
  local('write_note', 'Save a short note (local tool; kept in memory only).', 'suggest', [STRING('text', 'The note.')], (args) => `noted: ${String(args.text)}`),
  local('delete_file', 'Delete a file (local tool; simulated, nothing is deleted).', 'approve', [STRING('path', 'Path of the file.')], (args) => `would delete ${String(args.path)} (local)`),
];

/** Every local tool of the chapter's registry, in registration order. */
export const CHAPTER_TOOL_NAMES = LOCAL_TOOLS.map((tool) => tool.spec.name);

/** The local tools' specs as the registry holds them. */
export function localToolSpecs(): readonly ToolSpec[] {
  return LOCAL_TOOLS.map((tool) => tool.spec);
}

/** The ch08 subset the failure lab's name-clash card starts from (its verdict counts on three). */
export const LOCAL_TOOL_NAMES = ['get_time', 'get_weather', 'add'] as const;

/**
 * A registry holding local tools; `registryModule` is whichever copy of registry.ts is loaded.
 * `names` picks which (default: the lab's ch08 three; the Chapter loop passes CHAPTER_TOOL_NAMES).
 */
export function createLocalRegistry(registryModule: RegistryModule, names: readonly string[] = LOCAL_TOOL_NAMES): ToolRegistry {
  const registry = new registryModule.ToolRegistry();
  for (const tool of LOCAL_TOOLS) {
    if (names.includes(tool.spec.name)) registry.register({ ...tool.spec, parameters: tool.spec.parameters.map((param) => ({ ...param })) }, tool.run);
  }
  return registry;
}

/** The registry's tools as plain data. */
export function registryView(registry: ToolRegistry): RegistryEntryView[] {
  return registry.list().map((spec) => ({
    name: spec.name,
    source: spec.source?.kind === 'mcp' ? 'mcp' : 'local',
    remoteName: spec.source?.kind === 'mcp' ? spec.source.remoteName : null,
  }));
}
