// The chapter's local tool registry before any MCP server is bridged in: get_time, get_weather and
// add (ch08's tools). The echo server also has an `add`, which is the name clash the lab shows.
// Used on the page for the reference and inside the learner worker for the learner's code.

import type { ToolRegistry } from '../../protocol/registry.ts';
import type { RegistryEntryView } from './client-driver.ts';

type RegistryModule = { ToolRegistry: new () => ToolRegistry };

export const LOCAL_TOOL_NAMES = ['get_time', 'get_weather', 'add'] as const;

/** A registry holding the local tools; `registryModule` is whichever copy of registry.ts is loaded. */
export function createLocalRegistry(registryModule: RegistryModule): ToolRegistry {
  const registry = new registryModule.ToolRegistry();
  registry.register(
    { name: 'get_time', description: 'The current time (local tool).', parameters: [], risk: 'auto', source: { kind: 'local' } },
    () => new Date().toISOString(),
  );
  registry.register(
    {
      name: 'get_weather',
      description: 'The weather in a city (local tool).',
      parameters: [{ name: 'city', type: 'string', required: true, description: 'The city.' }],
      risk: 'auto',
      source: { kind: 'local' },
    },
    (args) => `sunny in ${String(args.city)}`,
  );
  registry.register(
    {
      name: 'add',
      description: 'Add two numbers (local tool).',
      parameters: [
        { name: 'a', type: 'number', required: true, description: 'The first addend.' },
        { name: 'b', type: 'number', required: true, description: 'The second addend.' },
      ],
      risk: 'auto',
      source: { kind: 'local' },
    },
    (args) => String(Number(args.a) + Number(args.b)),
  );
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
