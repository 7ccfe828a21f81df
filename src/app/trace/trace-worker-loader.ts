// The page's side of the trace worker: one worker per opening, ended when the trace is in or refused.

import type { TraceLoader } from './trace-store.ts';
import type { PageToTraceWorker, TraceWorkerToPage } from './trace-worker-messages.ts';

export const workerTraceLoader: TraceLoader = {
  open(source, onMessage) {
    // This exact `new Worker(new URL(...), { type: 'module' })` shape is what Vite bundles as a worker.
    const worker = new Worker(new URL('./trace-worker.ts', import.meta.url), { type: 'module', name: 'trace' });
    worker.addEventListener('message', (event: MessageEvent<TraceWorkerToPage>) => onMessage(event.data));
    worker.addEventListener('error', (event) => {
      onMessage({ type: 'failed', error: { code: 'json', line: 0, message: `the trace could not be read: ${event.message || 'the worker failed'}` } });
    });
    worker.postMessage({ type: 'open', source } satisfies PageToTraceWorker);
    return () => worker.terminate();
  },
};
