import { runApprovalDecisionBench } from './approval-decision.bench.js';
import { runBenchMain } from './support/bench-main.js';
import { approvalDecisionLines } from './support/report.js';
import { round } from './support/stats.js';

/** `npm run bench:approval`: only the approval decision bench (the full set is `npm run bench`). */
runBenchMain(
  (context) => {
    const figures = runApprovalDecisionBench(context);
    const json = JSON.stringify({ approval: figures }, (_k, v: unknown) =>
      typeof v === 'number' ? round(v, 3) : v,
    );
    return Promise.resolve(`${approvalDecisionLines(figures).join('\n')}\n${json}`);
  },
  { usesRedis: false },
);
