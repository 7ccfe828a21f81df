// One error for the whole authorization flow, naming the step that failed, so a person (and the
// Protocol view's authorization scene) can tell "the resource's metadata was wrong" from "the
// token endpoint said no".

export type AuthStep =
  | 'challenge'
  | 'resource-metadata'
  | 'server-metadata'
  | 'registration'
  | 'authorization'
  | 'token'
  | 'step-up';

export class AuthorizationError extends Error {
  constructor(
    readonly step: AuthStep,
    message: string,
  ) {
    super(`${step}: ${message}`);
    this.name = 'AuthorizationError';
  }
}
