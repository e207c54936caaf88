import { DomainError, declareErrorCodes } from '../../../common/errors/index.js';

export const AgentCallsErrorCode = {
  THREAD_AGENT_MISMATCH: 'agent_calls.thread_agent_mismatch',
} as const;
export type AgentCallsErrorCode = (typeof AgentCallsErrorCode)[keyof typeof AgentCallsErrorCode];
declareErrorCodes(AgentCallsErrorCode);

export const AgentCallsErrors = {
  threadAgentMismatch: (threadAgent: string) =>
    new DomainError(
      'unprocessable',
      AgentCallsErrorCode.THREAD_AGENT_MISMATCH,
      'The thread belongs to another agent.',
      { details: { field: 'thread_id', thread_agent_slug: threadAgent } },
    ),
};
