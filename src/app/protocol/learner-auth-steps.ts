// "Drive with your code" in the sign-in scene: the learner's exercise 8 file supplies the flow's pure
// steps (discovery URLs, PKCE, the authorization URL and the redirect's checks, the token request's
// form). It runs in the learner worker, never on the page's thread, under the same heartbeat rule as
// all learner code; the flow on the page calls each step with plain data and gets plain data back,
// checked for the shape the flow needs. A thrown error comes back with its line in the learner's file.

import type { ClientStepName, ClientSteps } from '../../protocol/auth/client-steps.ts';
import type { TokenRequestForm } from '../../protocol/auth/token-request.ts';
import type { ErrorInfo } from '../../sandbox/client-driver.ts';
import { LearnerWorkerHandle, type LearnerWorkerLike, type LearnerWorkerOptions } from '../../sandbox/learner-worker-client.ts';
import type { LearnerSource } from '../../sandbox/learner-worker-messages.ts';

/** An error of the learner's code (or of what it returned), with where it happened in their file. */
export class LearnerStepError extends Error {
  readonly step: ClientStepName;
  readonly line: number | null;
  constructor(step: ClientStepName, file: string, error: Pick<ErrorInfo, 'name' | 'message' | 'line'>) {
    super(`your ${step} (${file}${error.line === null ? '' : `:${error.line}`}): ${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`);
    this.name = 'LearnerStepError';
    this.step = step;
    this.line = error.line;
  }
}

export interface LearnerAuthSteps extends ClientSteps {
  /** The steps the learner's code answered so far, in order (the scene shows them as "your code"). */
  readonly answered: readonly ClientStepName[];
  dispose(): void;
}

export function learnerAuthSteps(source: LearnerSource, createWorker: () => LearnerWorkerLike, options: LearnerWorkerOptions = {}): LearnerAuthSteps {
  const handle = new LearnerWorkerHandle(createWorker, options);
  const pending = new Map<number, { step: ClientStepName; resolve(value: unknown): void; reject(error: Error): void }>();
  const answered: ClientStepName[] = [];
  let nextId = 1;
  let crash: string | null = null;
  handle.onCrash((reason) => {
    crash = reason;
    for (const { step, reject } of pending.values()) reject(new LearnerStepError(step, source.file, { name: 'Stopped', message: reason, line: null }));
    pending.clear();
  });
  handle.onMessage((message) => {
    if (message.type !== 'auth-result') return;
    const waiting = pending.get(message.callId);
    if (!waiting) return;
    pending.delete(message.callId);
    if (message.outcome.ok) {
      answered.push(waiting.step);
      waiting.resolve(message.outcome.value);
    } else waiting.reject(new LearnerStepError(waiting.step, source.file, message.outcome.error));
  });

  function call<T>(step: ClientStepName, args: unknown[], check: (value: unknown) => value is T, shape: string): Promise<T> {
    if (crash !== null) return Promise.reject(new LearnerStepError(step, source.file, { name: 'Stopped', message: crash, line: null }));
    const callId = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      pending.set(callId, { step, resolve, reject });
      // Plain data only: undefined arguments are left off, as the learner's defaults expect.
      handle.post({ type: 'auth-call', callId, source, name: step, args: JSON.parse(JSON.stringify(args.filter((arg) => arg !== undefined))) as unknown[] });
    }).then((value) => {
      if (!check(value)) throw new LearnerStepError(step, source.file, { name: 'TypeError', message: `returned ${describe(value)}, not ${shape}`, line: null });
      return value;
    });
  }

  return {
    answered,
    protectedResourceMetadataUrls: (endpoint, fromHeader) => call('protectedResourceMetadataUrls', [endpoint, fromHeader], isUrlList, 'a list of URLs'),
    authorizationServerMetadataUrls: (issuer) => call('authorizationServerMetadataUrls', [issuer], isUrlList, 'a list of URLs'),
    createCodeVerifier: () => call('createCodeVerifier', [], isText, 'a string'),
    codeChallengeS256: (verifier) => call('codeChallengeS256', [verifier], isText, 'a string'),
    authorizationUrl: (server, request) => call('authorizationUrl', [server, request], isText, 'a URL string'),
    codeFromRedirect: (redirect, expected) => call('codeFromRedirect', [redirect, expected], isText, 'a string'),
    tokenRequestForm: (client, grant, resource) => call('tokenRequestForm', [client, grant, resource], isForm, '{ fields, headers } of strings'),
    dispose: () => handle.dispose(),
  };
}

function isText(value: unknown): value is string {
  return typeof value === 'string';
}

function isUrlList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string' && URL.canParse(item));
}

function isForm(value: unknown): value is TokenRequestForm {
  const record = value as Partial<TokenRequestForm> | null;
  return typeof record === 'object' && record !== null && isStrings(record.fields) && isStrings(record.headers);
}

function isStrings(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
}

function describe(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
