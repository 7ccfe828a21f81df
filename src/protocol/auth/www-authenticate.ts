// The WWW-Authenticate header (RFC 9110 §11.6.1), read as MCP's authorization needs it: a 401 or
// 403 from a protected MCP server names its Protected Resource Metadata (`resource_metadata`,
// RFC 9728 §5.1), the scopes it wants (`scope`) and why it refused (`error`, RFC 6750 §3.1). One
// header can carry several challenges, and commas separate both challenges and the parameters
// inside one, so a parameter is told from the next challenge by its `name=`. Pure: no I/O.

/** One challenge: its scheme, and either a token68 or named parameters (names lowercased). */
export interface Challenge {
  scheme: string;
  token68?: string;
  params: Record<string, string>;
}

/** A header that does not follow the grammar: where, and what was expected there. */
export class WwwAuthenticateError extends Error {
  constructor(
    readonly detail: string,
    readonly at: number,
  ) {
    super(`WWW-Authenticate: ${detail} at character ${at}`);
    this.name = 'WwwAuthenticateError';
  }
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

/** Every challenge of one or more header values, in order (several values read as one list). */
export function parseWwwAuthenticate(values: string | readonly string[]): Challenge[] {
  const text = typeof values === 'string' ? values : values.join(', ');
  let at = 0;
  const challenges: Challenge[] = [];

  const skipSpaces = () => {
    while (text[at] === ' ' || text[at] === '\t') at++;
  };
  const skipListSeparators = () => {
    while (text[at] === ' ' || text[at] === '\t' || text[at] === ',') at++;
  };
  const token = (): string => {
    const start = at;
    while (at < text.length && TCHAR.test(text[at]!)) at++;
    return text.slice(start, at);
  };
  /**
   * Is a parameter (`name BWS = BWS value`) next, rather than a new challenge's scheme or a
   * token68? A token68 may end in "=" too ("YII="): what follows the "=" decides.
   */
  const paramNext = (): boolean => {
    const saved = at;
    const name = token();
    skipSpaces();
    let isParam = false;
    if (name !== '' && text[at] === '=') {
      at++;
      skipSpaces();
      isParam = at < text.length && (text[at] === '"' || TCHAR.test(text[at]!)) && text[at] !== '=';
    }
    at = saved;
    return isParam;
  };
  /** A token68 that ends the challenge (end of text, or a comma), or null with the cursor unmoved. */
  const token68 = (): string | null => {
    const start = at;
    while (at < text.length && TOKEN68_CHAR.test(text[at]!)) at++;
    if (at === start) return null;
    while (text[at] === '=') at++;
    const value = text.slice(start, at);
    skipSpaces();
    if (at === text.length || text[at] === ',') return value;
    at = start;
    return null;
  };
  const quoted = (): string => {
    at++; // the opening quote
    let value = '';
    while (at < text.length) {
      const char = text[at]!;
      if (char === '"') {
        at++;
        return value;
      }
      if (char === '\\') {
        if (at + 1 >= text.length) break;
        value += text[at + 1];
        at += 2;
      } else {
        value += char;
        at++;
      }
    }
    throw new WwwAuthenticateError('a quoted string that is never closed', at);
  };

  skipListSeparators();
  while (at < text.length) {
    const schemeAt = at;
    const scheme = token();
    if (scheme === '') throw new WwwAuthenticateError(`an auth scheme, not ${JSON.stringify(text[at])}`, at);
    const challenge: Challenge = { scheme, params: {} };
    challenges.push(challenge);
    if (at < text.length && text[at] !== ' ' && text[at] !== '\t' && text[at] !== ',') {
      throw new WwwAuthenticateError(`a space or a comma after the scheme ${JSON.stringify(text.slice(schemeAt, at))}`, at);
    }
    skipSpaces();
    if (at === text.length || text[at] === ',') {
      skipListSeparators();
      continue;
    }
    const t68 = paramNext() ? null : token68();
    if (t68 !== null) {
      challenge.token68 = t68;
      skipListSeparators();
      continue;
    }
    // Parameters, until the text ends or what follows a comma is the next challenge's scheme.
    for (;;) {
      const nameAt = at;
      const name = token().toLowerCase();
      if (name === '') throw new WwwAuthenticateError('a parameter name', at);
      skipSpaces();
      if (text[at] !== '=') throw new WwwAuthenticateError(`"=" after the parameter ${name}`, at);
      at++;
      skipSpaces();
      const value = text[at] === '"' ? quoted() : token();
      if (value === '' && text[at - 1] !== '"') throw new WwwAuthenticateError(`a value for the parameter ${name}`, at);
      // RFC 9110: each parameter name occurs only once per challenge.
      if (Object.hasOwn(challenge.params, name)) throw new WwwAuthenticateError(`the parameter ${name} only once`, nameAt);
      challenge.params[name] = value;
      skipSpaces();
      if (at === text.length) break;
      if (text[at] !== ',') throw new WwwAuthenticateError(`a comma or the end after the parameter ${name}`, at);
      skipListSeparators();
      if (at === text.length || !paramNext()) break;
    }
  }
  return challenges;
}

/** What a Bearer challenge tells an MCP client (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  /** The Protected Resource Metadata document's URL, when the server names it. */
  resourceMetadata?: string;
  /** The scopes the server asks for, in its order (space-separated in the header). */
  scopes?: string[];
  /** e.g. 'invalid_token', or 'insufficient_scope' on a 403 that calls for step-up. */
  error?: string;
  errorDescription?: string;
  realm?: string;
}

/** The first Bearer challenge of the header (scheme names are case-insensitive), or null. */
export function bearerChallenge(values: string | readonly string[]): BearerChallenge | null {
  const bearer = parseWwwAuthenticate(values).find((challenge) => challenge.scheme.toLowerCase() === 'bearer');
  if (!bearer) return null;
  const { resource_metadata, scope, error, error_description, realm } = bearer.params;
  return {
    ...(resource_metadata === undefined ? {} : { resourceMetadata: resource_metadata }),
    ...(scope === undefined ? {} : { scopes: scope.split(' ').filter((part) => part !== '') }),
    ...(error === undefined ? {} : { error }),
    ...(error_description === undefined ? {} : { errorDescription: error_description }),
    ...(realm === undefined ? {} : { realm }),
  };
}

/** A challenge as header text: each value quoted (always valid), a token68 as it is. */
export function formatChallenge(challenge: Challenge): string {
  if (challenge.token68 !== undefined) return `${challenge.scheme} ${challenge.token68}`;
  const params = Object.entries(challenge.params).map(([name, value]) => `${name}="${value.replace(/["\\]/g, (char) => `\\${char}`)}"`);
  return params.length === 0 ? challenge.scheme : `${challenge.scheme} ${params.join(', ')}`;
}
