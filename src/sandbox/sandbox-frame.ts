// The sandbox frame's whole program, as the text of its one inline script. It is a string (not a
// function turned into text) so the build, `npm start` and the tests hash exactly the same bytes:
// the frame's CSP allows this script by its SHA-256 and nothing else (server/sandbox-document.ts).
//
// What it does: refuse to run unless its origin is opaque, take one control port from its parent, keep each worker bundle as a blob: URL,
// start classic workers from them (they inherit this document's opaque origin and CSP), hand each
// its own port to the page, report load errors, terminate on request. It never reads what the page
// and the workers say to each other, and never talks to its parent except through the port.

import { SANDBOX_HELLO, SANDBOX_PORT } from './sandbox-protocol.ts';

export const SANDBOX_FRAME_SCRIPT = `(() => {
  'use strict';
  // Fail closed: served without its CSP's sandbox directive (a host that cannot send it), this
  // document shares the playground's origin. Then it starts nothing, only tells the page, which
  // opens it again inside an iframe with the sandbox attribute instead.
  if (self.origin !== 'null') {
    addEventListener('message', (event) => {
      if (event.source === parent && event.ports.length === 1 && event.data && event.data.type === ${JSON.stringify(SANDBOX_HELLO)}) event.ports[0].postMessage({ type: 'not-isolated' });
    });
    return;
  }
  let control = null;
  const bundles = new Map();
  const workers = new Map();
  const report = (id, message) => control.postMessage({ type: 'error', id, message: String(message || 'the worker could not start') });
  addEventListener('message', (event) => {
    if (control !== null || event.source !== parent || event.ports.length !== 1) return;
    if (!event.data || event.data.type !== ${JSON.stringify(SANDBOX_HELLO)}) return;
    control = event.ports[0];
    control.onmessage = (message) => handle(message.data, message.ports);
    control.postMessage({ type: 'ready', origin: self.origin });
  });
  function handle(message, ports) {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'define' && typeof message.key === 'string' && typeof message.source === 'string') {
      if (!bundles.has(message.key)) bundles.set(message.key, URL.createObjectURL(new Blob([message.source], { type: 'text/javascript' })));
    } else if (message.type === 'start' && typeof message.id === 'number' && ports.length === 1) {
      const url = bundles.get(message.key);
      if (url === undefined) return report(message.id, 'no worker bundle ' + message.key);
      let worker;
      try {
        worker = new Worker(url, { name: String(message.name) });
      } catch (error) {
        return report(message.id, error && error.message);
      }
      workers.set(message.id, worker);
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        report(message.id, event.message || 'the worker script could not be loaded');
      });
      worker.postMessage({ type: ${JSON.stringify(SANDBOX_PORT)} }, [ports[0]]);
    } else if (message.type === 'terminate' && typeof message.id === 'number') {
      const worker = workers.get(message.id);
      workers.delete(message.id);
      if (worker) worker.terminate();
    }
  }
})();`;
