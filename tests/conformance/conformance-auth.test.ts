// The official MCP conformance suite's client scenarios, authorization (auth/*) included, run the
// way the suite groups them for a revision (tools/conformance-clients.ts), against the project's
// client programs: 2025-11-25's 14 authorization scenarios with server/mcp-http-client.ts, and
// every client scenario 2026-07-28 requires (8 without authorization, 25 auth/*) with the
// dual-era client. Our clients meet a 401 with the whole flow of src/protocol/auth, signed in the
// headless way (server/headless-authorization.ts). The official SDKs' clients on the same
// scenarios, beside ours: `npm run --silent conformance-sdks` (not part of this test, for time).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSuiteTools, REVISIONS, runSuite, type SuiteTools } from '../../tools/conformance-clients.ts';
import { count, summaryTable } from '../../tools/conformance-checks.ts';

let tools: SuiteTools;

beforeAll(async () => {
  tools = await prepareSuiteTools(['mcp-http-client', 'mcp-era-client']);
}, 300_000);

afterAll(() => tools?.dispose());

describe.each(REVISIONS)('the conformance suite $suite at $spec: client scenarios, authorization included', (revision) => {
  it(`our client passes every scenario the revision scores, with no warning`, async () => {
    const ours = await runSuite(tools, revision, revision.ours);
    console.log(`conformance ${revision.spec}, client scenarios, ours\n${summaryTable(ours.scenarios)}`);
    // Scenarios the suite runs but marks "not scored (extension)" for the revision are printed only.
    const scored = ours.scenarios.filter((item) => ours.notScored.get(item.scenario) !== 'extension');
    for (const [scenario, why] of ours.notScored) if (why === 'extension') console.log(`not scored for ${revision.spec} (${why}): ${scenario}`);
    expect(scored.map((item) => item.scenario).sort()).toEqual([...revision.expected].sort());
    for (const item of scored) {
      const failures = item.checks.filter((check) => check.status === 'FAILURE').map((check) => check.errorMessage ?? check.description);
      expect(failures, `${item.scenario}\n${item.log}`).toEqual([]);
      expect(count(item.checks, 'WARNING'), item.scenario).toBe(0);
      expect(count(item.checks, 'SUCCESS'), item.scenario).toBeGreaterThan(0);
    }
    // The dual-era client finds 2026-07-28 by server/discover wherever it gets that far (a client
    // that refuses a mix-up, as it must, stops before).
    if (revision.spec === '2026-07-28') {
      for (const item of scored.filter((run) => !/failed:/.test(run.log))) expect(item.log, item.scenario).toMatch(/: modern era, protocol 2026-07-28 \(server\/discover offered 2026-07-28\)/);
    }
  }, 300_000);
});
