import { interrupt } from '@langchain/langgraph';
import type { ToolCallResult } from '../../../tools/index.js';
import { ASK_USER_QUESTION } from '../../questions/ask-user-question.tool.js';
import type { NormalizedQuestion } from '../../questions/question-schema.js';
import type { Answers } from '../../questions/waiting-point.entity.js';
import {
  answersOfCall,
  mergeTurnQuestions,
  type AskedCall,
  type PointQuestion,
} from '../../questions/turn-questions.js';
import type { ModelToolCall } from './session-scope.js';

/**
 * What the graph is interrupted with when the model asks the user: stored in the checkpoint. Every
 * question of the turn's `ask_user_question` calls; `tool_call_id` is the first of those calls.
 */
export interface QuestionInterrupt {
  tool_call_id: string;
  questions: PointQuestion[];
}

/**
 * Every `ask_user_question` call of the turn not answered yet, asked through one interrupt: their
 * arguments are validated (no side effect), the valid ones' questions go to one waiting point, and
 * each call's result carries its own questions and answers. The interrupt comes before any write of
 * these calls, because LangGraph re-runs an interrupted node: on resume this node runs again from its
 * first line and `interrupt` returns the answers, which are then written by the tool loop. One
 * interrupt per node run, so the resume value is never matched to the wrong question.
 */
export async function askTurnQuestions(
  calls: ModelToolCall[],
  isStored: (index: number) => boolean,
  execute: (call: ModelToolCall) => Promise<ToolCallResult>,
): Promise<Map<string, ToolCallResult>> {
  const results = new Map<string, ToolCallResult>();
  const asked: AskedCall[] = [];
  let position = 0;
  for (const [index, call] of calls.entries()) {
    if (call.name !== ASK_USER_QUESTION) continue;
    position++;
    if (isStored(index)) continue;
    const result = await execute(call);
    results.set(call.id!, result);
    if (!result.isError) {
      const { questions } = JSON.parse(result.content) as { questions: NormalizedQuestion[] };
      asked.push({ toolCallId: call.id!, position, questions });
    }
  }
  if (asked.length === 0) return results;
  const answers = interrupt<QuestionInterrupt, Answers>({
    tool_call_id: asked[0].toolCallId,
    questions: mergeTurnQuestions(asked),
  });
  for (const call of asked) {
    const content = JSON.stringify({ questions: call.questions, answers: answersOfCall(answers, call) });
    results.set(call.toolCallId, { ...results.get(call.toolCallId)!, content });
  }
  return results;
}
