// `npm run bench`: every benchmark of the project, each printed as ratios against a baseline
// measured in the same run on the same machine. `npm run --silent bench -- --json` prints one
// JSON object instead of the tables.

import { runFramingBench, type FramingRow } from './framing.ts';
import { formatHostsReport, runHostsBench, type HostRow } from './hosts.ts';
import { formatExerciseRunReport, runExerciseRunBench, type ExerciseRunRow } from './exercise-run.ts';
import { formatTable, ratio } from './report.ts';

const FRAMING_GOAL_VS_JSON_PARSE = 1.5;

interface BenchReport {
  framing: FramingRow[];
  hosts: HostRow[];
  /** Not hosts: measurements that explain them (Chromium's bare WebSocket round trip). */
  hostReferences: HostRow<string>[];
  exerciseRun: ExerciseRunRow[];
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const log = (line: string) => {
    if (!json) console.log(line);
  };

  log('Framing readers: our readers vs JSON.parse alone (the floor) and the official SDK ReadBuffer');
  const framing = await runFramingBench();
  log(
    formatTable(
      ['workload', 'framing', 'ms', 'JSON.parse ms', 'SDK ReadBuffer ms', '× JSON.parse', '× SDK', 'goal'],
      framing.map((row) => {
        const vsFloor = row.ms / row.jsonParseMs;
        const vsSdk = row.ms / row.sdkReadBufferMs;
        const met = vsFloor <= FRAMING_GOAL_VS_JSON_PARSE && vsSdk < 1;
        return [row.workload, row.framing, row.ms.toFixed(1), row.jsonParseMs.toFixed(1), row.sdkReadBufferMs.toFixed(1), ratio(vsFloor), ratio(vsSdk), met ? 'met' : 'MISSED'];
      }),
    ),
  );
  log(`goal: every reader ≤ ${FRAMING_GOAL_VS_JSON_PARSE}× JSON.parse and faster than the SDK's ReadBuffer`);

  log('');
  log('Live hosts: one echo tools/call round trip through each host, vs the official SDK client over stdio');
  const hosts = await runHostsBench();
  log(formatHostsReport(hosts));

  log('');
  log('Exercise run: pressing Run in the page until the results show, vs the CLI on the same spec (reference solution)');
  const exerciseRun = await runExerciseRunBench();
  log(formatExerciseRunReport(exerciseRun));

  const report: BenchReport = { framing, hosts: hosts.rows, hostReferences: hosts.references, exerciseRun };
  if (json) console.log(JSON.stringify(report));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
