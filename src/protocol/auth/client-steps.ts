// The client's pure steps of the authorization flow, as one replaceable set: where the two metadata
// documents are looked for, PKCE, the authorization URL and the redirect's checks, the token
// request's form. The flow (flow.ts) and discovery take them from here, so the very code exercise 8
// asks a learner to write can run the whole flow against real servers: the reference set below by
// default, or the learner's, run elsewhere (a worker) and so answered asynchronously.

import { authorizationServerMetadataUrls, protectedResourceMetadataUrls } from './discovery-urls.ts';
import { codeChallengeS256, createCodeVerifier } from './pkce.ts';
import { authorizationUrl, codeFromRedirect, type AuthorizationRequest } from './authorization-request.ts';
import { tokenRequestForm, type Grant, type TokenRequestForm } from './token-request.ts';
import type { AuthorizationServerMetadata } from './server-metadata.ts';
import type { ClientIdentity } from './client-identity.ts';

type Answer<T> = T | Promise<T>;

export interface ClientSteps {
  protectedResourceMetadataUrls(endpoint: string, fromHeader?: string): Answer<string[]>;
  authorizationServerMetadataUrls(issuer: string): Answer<string[]>;
  createCodeVerifier(): Answer<string>;
  codeChallengeS256(verifier: string): Answer<string>;
  authorizationUrl(server: AuthorizationServerMetadata, request: AuthorizationRequest): Answer<string>;
  codeFromRedirect(redirect: string, expected: { state: string; server: AuthorizationServerMetadata }): Answer<string>;
  tokenRequestForm(client: ClientIdentity, grant: Grant, resource: string): Answer<TokenRequestForm>;
}

/** The names of the steps, in the order the flow first uses them. */
export const CLIENT_STEP_NAMES = [
  'protectedResourceMetadataUrls',
  'authorizationServerMetadataUrls',
  'createCodeVerifier',
  'codeChallengeS256',
  'authorizationUrl',
  'codeFromRedirect',
  'tokenRequestForm',
] as const satisfies readonly (keyof ClientSteps)[];

export type ClientStepName = (typeof CLIENT_STEP_NAMES)[number];

export const REFERENCE_STEPS: ClientSteps = {
  protectedResourceMetadataUrls,
  authorizationServerMetadataUrls,
  createCodeVerifier: () => createCodeVerifier(),
  codeChallengeS256,
  authorizationUrl,
  codeFromRedirect,
  tokenRequestForm,
};
