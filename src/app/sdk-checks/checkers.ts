// The one module the SDK checks load on demand: everything that imports the official SDK sits
// behind this dynamic import, so none of it is in the first-paint bundle.

export { checkClient } from './check-client.ts';
export { checkEraClient } from './check-client-era.ts';
export { checkHttpClient } from './check-client-http.ts';
export { checkServer } from './check-server.ts';
export { checkServerModern } from './check-server-modern.ts';
