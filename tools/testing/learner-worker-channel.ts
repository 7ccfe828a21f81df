// For Node tests: the learner worker's core on one end of a real MessageChannel (structured clone,
// async delivery), the page's handle on the other; no Worker, which Node does not have.

import { loadProtocolModulesFromDisk } from '../catalogue-node.ts';
import type { ProtocolModules } from '../../src/sandbox/protocol-modules.ts';
import { createLearnerWorkerCore, type LearnerWorkerCore } from '../../src/sandbox/learner-worker-core.ts';
import type { LearnerWorkerLike } from '../../src/sandbox/learner-worker-client.ts';

let modules: Promise<ProtocolModules> | undefined;
export function protocolModules(): Promise<ProtocolModules> {
  modules ??= loadProtocolModulesFromDisk();
  return modules;
}

const cleanups: Array<() => void> = [];

/** Close every channel and core made so far (call from afterEach). */
export function closeLearnerChannels(): void {
  for (const cleanup of cleanups.splice(0)) cleanup();
}

export function learnerWorkerFactory(loaded: ProtocolModules, options: { silent?: boolean } = {}): () => LearnerWorkerLike & { terminated: boolean } {
  return () => {
    const { port1: page, port2: inside } = new MessageChannel();
    let core: LearnerWorkerCore | undefined;
    if (!options.silent) {
      core = createLearnerWorkerCore({ post: (message) => inside.postMessage(message), protocolModules: loaded });
      inside.onmessage = (event) => core!.handle(event.data);
    }
    const close = () => {
      core?.dispose();
      page.close();
      inside.close();
    };
    cleanups.push(close);
    const worker = {
      terminated: false,
      postMessage: (message: unknown) => page.postMessage(message),
      onMessage: (listener: (data: unknown) => void) => {
        page.onmessage = (event) => listener(event.data);
      },
      onError: () => {},
      terminate: () => {
        worker.terminated = true;
        close();
      },
    };
    return worker;
  };
}
