// The Web Worker that opens traces off the page's thread (see trace-worker-core.ts).

import { chunksOf, readTrace } from './trace-worker-core.ts';
import type { PageToTraceWorker, TraceWorkerToPage } from './trace-worker-messages.ts';

// The project's lib list has no WebWorker types (the page's DOM types would clash), so the worker
// scope is described by the two members used.
const scope = globalThis as unknown as {
  postMessage(message: TraceWorkerToPage, transfer?: ArrayBuffer[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<PageToTraceWorker>) => void): void;
};

scope.addEventListener('message', (event) => {
  const { source } = event.data;
  const total = typeof source === 'string' ? source.length : source.size;
  void readTrace(chunksOf(source), total, (message, transfer) => scope.postMessage(message, transfer)).catch((error: unknown) =>
    scope.postMessage({ type: 'failed', error: { code: 'json', line: 0, message: error instanceof Error ? error.message : String(error) } }),
  );
});
