// Reading a client-side HTTP response body to its end: as text, as the message of a JSON-RPC
// error body, or just to let the connection go.

import type { HttpClientResponse } from './types.ts';

export async function bodyText(response: HttpClientResponse): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** The message of a JSON-RPC error body, or the body itself. */
export async function errorText(response: HttpClientResponse): Promise<string> {
  const text = await bodyText(response).catch(() => '');
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON: show the text
  }
  return text.slice(0, 200);
}

export async function drain(response: HttpClientResponse): Promise<void> {
  try {
    for await (const _ of response.body) {
      // 202 has no body; anything there is discarded
    }
  } catch {
    // nothing was expected anyway
  }
}
