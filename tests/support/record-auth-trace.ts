// Records the authorization scene on a real bridge, as the page runs it, into the trace the worker
// host opens instead (public/traces/authorization-scene.jsonl): in the worker no Node process runs,
// so no authorization server can. The sign-in runs to its end with Allow, and the trace's secrets
// are hidden (same length), as the page saves them. Re-run after a change to the flow:
// `npm run --silent record-auth-trace`; tests/integration/authorization-scene.test.ts checks that the
// file still matches a fresh run, exchange for exchange. (Under tests/: it runs the page's code in
// Node, as the tests do.)

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildProgramsForTest, pageHost, startTestBridge } from '../integration/ws-tap-transport.ts';
import { AuthSceneStore } from '../../src/app/protocol/auth-scene-store.ts';
import { redactEvents } from '../../src/app/protocol/auth-redaction.ts';
import { httpTraceText } from '../../src/app/trace/trace-export.ts';
import type { HttpWire } from '../../src/runtime/http-tap-wire.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

export const RECORDED_AUTH_TRACE = join(PROJECT_ROOT, 'public', 'traces', 'authorization-scene.jsonl');

async function record(): Promise<string> {
  const programs = await buildProgramsForTest();
  const bridge = await startTestBridge({ programsDir: programs.dir });
  try {
    const host = pageHost(bridge);
    const scene = new AuthSceneStore({ startProgram: async (spec) => (await host.start(spec)) as HttpWire });
    await scene.runToEnd({ allow: true });
    const { status, outcome } = scene.getSnapshot();
    if (status.status !== 'done' || outcome?.ok !== true) throw new Error(`the sign-in did not finish: ${JSON.stringify({ status, outcome })}`);
    const recording = scene.recording()!;
    return httpTraceText({ ...recording, events: redactEvents(recording.events) });
  } finally {
    await bridge.close();
    await programs.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await record();
  await writeFile(RECORDED_AUTH_TRACE, text);
  console.log(`${RECORDED_AUTH_TRACE}: ${text.split('\n').length - 1} lines, ${text.length} bytes`);
}
