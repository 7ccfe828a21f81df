// The escape attempts of issue 22, as plain JavaScript that runs unchanged in two places: as the
// module of learner code a share link carries (inside the sandbox frame's worker) and as a classic
// worker the page itself starts (same origin: the control, where each attempt must succeed, so a
// refusal in the sandbox is the sandbox's doing). Each attempt ends 'reached: …' or 'refused: …'.
// Every API is read through `globalThis`: hiding a bare name (src/sandbox/hidden-globals.ts) hides
// nothing from code that asks the global object, so only the origin can refuse these.

export const PROBE_CHANNEL = 'mcp-sandbox-probe';

/** Defines `probeSandbox(origin, assets, who)`: resolves with one outcome per attempt. */
export const PROBE_SOURCE = String.raw`
function probeSandbox(origin, assets, who) {
  var outcomes = {};
  var refused = function (error) { return 'refused: ' + ((error && error.name) || String(error)); };
  var settle = function (name, promise) {
    return promise.then(function (value) { outcomes[name] = 'reached: ' + value; }, function (error) { outcomes[name] = refused(error); });
  };
  var attempt = function (name, run) {
    return settle(name, new Promise(function (resolve, reject) { resolve(run()); }));
  };
  var xhr = function () {
    var request = new globalThis.XMLHttpRequest();
    request.open('GET', origin + '/', false);
    request.send();
    return 'HTTP ' + request.status + ', ' + request.responseText.length + ' bytes';
  };
  var all = [
    // The precache holds the app (and once held index.html with the bridge token).
    attempt('CacheStorage', function () { return globalThis.caches.keys().then(function (keys) { return keys.length + ' caches'; }); }),
    attempt('IndexedDB', function () {
      return new Promise(function (resolve, reject) {
        var request = globalThis.indexedDB.open('mcp-sandbox-probe');
        request.onsuccess = function () { request.result.close(); resolve('opened'); };
        request.onerror = function () { reject(request.error); };
      });
    }),
    attempt('serviceWorker', function () {
      var container = globalThis.navigator.serviceWorker;
      if (!container) throw { name: 'absent' };
      return container.getRegistrations().then(function (list) { return list.length + ' registrations'; });
    }),
    attempt('fetch', function () { return globalThis.fetch(origin + '/').then(function (response) { return 'HTTP ' + response.status; }); }),
    attempt('XMLHttpRequest', xhr),
    attempt('Worker', function () {
      return new Promise(function (resolve, reject) {
        var worker = new globalThis.Worker(origin + assets.worker);
        worker.onmessage = function () { worker.terminate(); resolve('started, and it answered'); };
        worker.onerror = function (event) { event.preventDefault(); reject({ name: 'error event' }); };
      });
    }),
    attempt('importScripts', function () {
      try {
        globalThis.importScripts(origin + assets.script);
        return 'ran';
      } catch (error) {
        // A module chunk cannot run as a classic script: a SyntaxError means it was fetched.
        if (error && error.name === 'SyntaxError') return 'fetched (' + error.name + ')';
        throw error;
      }
    }),
    attempt('BroadcastChannel', function () { new globalThis.BroadcastChannel(${JSON.stringify(PROBE_CHANNEL)}).postMessage({ from: who }); return 'sent'; }),
    attempt('postMessage', function () { globalThis.postMessage({ mcpProbe: who }); return 'sent'; }),
    attempt('document.cookie', function () { return typeof globalThis.document.cookie; }),
    attempt('localStorage', function () { return typeof globalThis.localStorage.getItem('x'); }),
  ];
  return Promise.all(all).then(function () { return outcomes; });
}
`;

/**
 * Exercise 4's learner file: every attempt starts as the module loads, and the spec's first test,
 * which awaits `handle()`, fails with the outcomes as its message.
 */
export function learnerProbe(origin: string, assets: { worker: string; script: string }): string {
  return `${PROBE_SOURCE}
const outcomes = probeSandbox(${JSON.stringify(origin)}, ${JSON.stringify(assets)}, 'sandbox');
export class McpServer {
  constructor(_options: unknown) {}
  async handle(_message: unknown): Promise<unknown> {
    throw new Error('PROBE ' + JSON.stringify(await outcomes) + ' END');
  }
}
`;
}

/** The control: the same attempts in a worker the page starts, which posts them back. */
export function controlProbe(origin: string, assets: { worker: string; script: string }): string {
  return `${PROBE_SOURCE}
probeSandbox(${JSON.stringify(origin)}, ${JSON.stringify(assets)}, 'control').then(function (outcomes) { postMessage({ outcomes: outcomes }); });
`;
}
