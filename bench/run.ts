// `npm run bench`: every benchmark of the project, each printed as ratios against a baseline
// measured in the same run on the same machine. `npm run --silent bench -- --json` prints one
// JSON object instead of the tables.

import { runFramingBench, type FramingRow } from './framing.ts';
import { formatTable, ratio } from './report.ts';

const FRAMING_GOAL_VS_JSON_PARSE = 1.5;

interface BenchReport {
  framing: FramingRow[];
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

  const report: BenchReport = { framing };
  if (json) console.log(JSON.stringify(report));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
