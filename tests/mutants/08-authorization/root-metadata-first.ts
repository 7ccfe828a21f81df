import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the root Protected Resource Metadata tried before the path-inserted one",
  why: "A server that hosts several MCP endpoints under one host describes each at its own path; asking the root first gets another endpoint's metadata (or none).",
  section: "discovery",
  file: "src/protocol/auth/discovery-urls.ts",
  edits: [
    { find: "  return path === '' ? [root] : [`${root}${path}`, root];", replace: "  return path === '' ? [root] : [root, `${root}${path}`]; // MUTANT: root first" },
  ],
  caughtBy: ["inserts the well-known name between the host and the endpoint's path, then tries the root"],
} satisfies Mutant;
