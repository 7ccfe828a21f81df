// For Node tests: a Host that starts the real programs the checks need, as the bridge would —
// sdk-echo-server as a real Node child process behind the tap, learner-server as the learner's
// code in the learner-server core — and records every spec it was asked to start.

import type { ProtocolModules } from '../../src/sandbox/protocol-modules.ts';
import type { Host, HostKind, ProgramSpec, Wire } from '../../src/runtime/host.ts';
import { builtProgramPath, learnerServerWire, programWire, sdkHttpWire } from './node-wires.ts';

export function nodeHost(modules: ProtocolModules, kind: HostKind = 'bridge'): Host & { started: ProgramSpec[] } {
  const started: ProgramSpec[] = [];
  return {
    kind,
    started,
    async start(spec): Promise<Wire> {
      started.push(spec);
      switch (spec.program) {
        case 'sdk-echo-server':
          return programWire(builtProgramPath('sdk-echo-server'), [], kind);
        case 'sdk2-echo-server':
          return programWire(builtProgramPath('sdk2-echo-server'), spec.era === 'modern' ? ['--era=modern'] : [], kind);
        case 'echo-server':
          return programWire(builtProgramPath('echo-server'), [`--framing=${spec.framing}`], kind);
        case 'learner-server':
          if (!spec.learnerServer) throw new Error('learner-server needs learnerServer');
          return learnerServerWire(spec.learnerServer.code, modules);
        case 'mcp-http':
          throw new Error('the checks never start mcp-http');
        case 'sdk-http-server':
          return sdkHttpWire(kind);
      }
    },
  };
}
