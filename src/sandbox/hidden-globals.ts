// Browser APIs learner code (and a spec) sees as `undefined`: each is a parameter of the module
// function. Defence in depth only: the real boundary is the worker (no DOM, no page storage,
// terminated at will); this keeps an exercise from reaching the network or the origin's databases
// by accident. The spec worker, the learner worker and the learner-server worker all hide the same.

export const HIDDEN_GLOBALS = ['indexedDB', 'caches', 'fetch', 'importScripts', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'BroadcastChannel', 'localStorage', 'sessionStorage'] as const;

/** `{ fetch: undefined, … }`, for a module loader's `shadowedGlobals`. */
export function hiddenGlobals(): Record<string, undefined> {
  return Object.fromEntries(HIDDEN_GLOBALS.map((name) => [name, undefined]));
}
