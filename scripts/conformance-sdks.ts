// `npm run --silent conformance-sdks`: the conformance suite's client scenarios (the same runs
// tests/conformance/conformance-auth.test.ts makes, authorization included) with the project's
// clients and, in the same run, the official SDKs' clients (server/sdk-auth-client.ts: 1.32.2 and
// 2.4.0); prints one table per revision, scenario by scenario. Not in `npm test`: the two SDK runs
// cost ~45 s of CPU. Exit code 1 when any of our scored scenarios fails.

import { comparison, passed, prepareSuiteTools, REVISIONS, runSuite, SDKS, type Contender, type SuiteRun } from '../tools/conformance-clients.ts';

const tools = await prepareSuiteTools();
let ourFailures = 0;
try {
  for (const revision of REVISIONS) {
    const runs = await Promise.all([revision.ours, ...SDKS].map(async (contender) => [contender, await runSuite(tools, revision, contender)] as [Contender, SuiteRun]));
    console.log(`conformance ${revision.spec} (suite ${revision.suite}, ${revision.select.join(' ')}): client scenarios, ours beside the official SDKs' clients`);
    console.log(comparison(revision, runs));
    console.log('');
    ourFailures += revision.expected.filter((scenario) => !passed(runs[0]![1].scenarios.find((item) => item.scenario === scenario))).length;
  }
} finally {
  tools.dispose();
}
if (ourFailures > 0) process.exitCode = 1;
