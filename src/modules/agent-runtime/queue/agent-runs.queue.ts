export const AGENT_RUNS_QUEUE = 'agent-runs';
export const EXECUTE_RUN_JOB = 'execute-run';

/** A job only names the run: everything else is read from PostgreSQL when it executes. */
export interface AgentRunJob {
  runId: string;
}
