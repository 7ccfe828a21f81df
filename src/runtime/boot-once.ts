// Some things may exist only once per page: WebContainer allows a single booted instance, and a
// second boot() fails. React StrictMode runs effects twice and Vite's hot reload re-runs modules,
// so a module-level variable is not enough: the promise lives on globalThis, where a re-evaluated
// copy of this module finds the one the first copy started.

/** The global key for a named once-per-page value. `Symbol.for` is shared by every module copy. */
export function pageSlotKey(name: string): symbol {
  return Symbol.for(`mcp-playground:${name}`);
}

type Slots = Record<symbol, Promise<unknown> | undefined>;

/**
 * Start `create` the first time `name` is asked for on this page; every later call, from any copy
 * of any module, gets the same promise. A rejected promise is forgotten so a later call may retry;
 * a pending one is kept, because starting a second WebContainer boot while the first is still
 * loading would fail however long we wait.
 */
export function oncePerPage<T>(name: string, create: () => Promise<T>): Promise<T> {
  const slots = globalThis as unknown as Slots;
  const key = pageSlotKey(name);
  const existing = slots[key];
  if (existing) return existing as Promise<T>;
  const created = startSafely(create);
  slots[key] = created;
  created.catch(() => {
    if (slots[key] === created) slots[key] = undefined;
  });
  return created;
}

/** Forget a once-per-page value (tests, or after tearing the instance down). */
export function forgetPageSlot(name: string): void {
  (globalThis as unknown as Slots)[pageSlotKey(name)] = undefined;
}

/** The same rule for a value owned by one object instead of the page. */
export function once<T>(create: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  return () => {
    if (current) return current;
    const created = startSafely(create);
    current = created;
    created.catch(() => {
      if (current === created) current = undefined;
    });
    return created;
  };
}

/** A synchronous throw becomes a rejection, so callers only ever handle one failure path. */
function startSafely<T>(create: () => Promise<T>): Promise<T> {
  try {
    return Promise.resolve(create());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Thrown by `withTimeout` so callers can tell "took too long" from "failed". */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/**
 * Race `promise` against a timer. The original promise keeps running (a WebContainer boot cannot
 * be cancelled); only the wait is bounded.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
