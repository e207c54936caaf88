import { runApprovalDecisionBench } from './approval-decision.bench.js';
import { runApprovalResumeBench } from './approval-resume.bench.js';
import { runBenchMain } from './support/bench-main.js';
import { approvalDecisionLines, approvalResumeLines } from './support/report.js';
import { round } from './support/stats.js';

/** `npm run bench:approval`: only the approval benches (the full set is `npm run bench`). */
runBenchMain(
  async (context) => {
    // First: in process with no app, before the service's children take the machine's cores.
    const decision = await runApprovalDecisionBench(context);
    const resume = await runApprovalResumeBench(context);
    const json = JSON.stringify({ approval: decision, approvalResume: resume }, (_k, v: unknown) =>
      typeof v === 'number' ? round(v, 3) : v,
    );
    return [...approvalDecisionLines(decision), '', ...approvalResumeLines(resume), json].join('\n');
  },
  { usesRedis: true },
);
