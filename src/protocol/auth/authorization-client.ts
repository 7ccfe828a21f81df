// The entry point of exercise 8 (exercises/08-authorization): the learner writes the client's pure
// steps of MCP authorization in one file — where to look for the two metadata documents, PKCE, the
// authorization URL and the redirect back, the token request — while the reference keeps them in
// four small modules, one job each. This file only gathers them, so '@learner' can stand for the
// learner's whole file when the spec runs against the reference; the flow (flow.ts) and the
// programs run the very same modules.

export { authorizationServerMetadataUrls, protectedResourceMetadataUrls } from './discovery-urls.ts';
export { codeChallengeS256, createCodeVerifier, isCodeVerifier } from './pkce.ts';
export { authorizationUrl, codeFromRedirect } from './authorization-request.ts';
export type { AuthorizationRequest } from './authorization-request.ts';
export { basicCredentials, tokenRequestForm } from './token-request.ts';
export type { Grant, TokenRequestForm } from './token-request.ts';
