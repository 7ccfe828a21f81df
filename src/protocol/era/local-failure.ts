// When an HTTP exchange gives no JSON-RPC answer (a bare 400, a 404 page, a refused connection),
// the client transport still owes the waiting request an answer, so it makes up an error response
// for that id. basic/index.mdx warns that such local errors must not be mistaken for the peer's:
// this marker in `error.data` is how the client tells them apart.

/** -32000: implementation-defined; the SDK reports transport failures with it too. */
export const LOCAL_FAILURE_CODE = -32000;

export interface LocalHttpFailure {
  /** The HTTP status, when a response came at all. */
  status?: number;
  /** The start of the response body, for people to read. */
  body?: string;
}

const MARKER = 'localHttpFailure';

/** `error.data` for a made-up error response. */
export function localFailureData(failure: LocalHttpFailure): Record<string, unknown> {
  return { [MARKER]: failure };
}

/** The failure a made-up error response describes, or undefined for an error the server really sent. */
export function readLocalHttpFailure(data: unknown): LocalHttpFailure | undefined {
  if (typeof data !== 'object' || data === null || !(MARKER in data)) return undefined;
  const failure = (data as Record<string, unknown>)[MARKER];
  if (typeof failure !== 'object' || failure === null) return undefined;
  const { status, body } = failure as Record<string, unknown>;
  return { ...(typeof status === 'number' ? { status } : {}), ...(typeof body === 'string' ? { body } : {}) };
}
