import type { NormalizedQuestion } from './question-schema.js';
import type { Answers } from './waiting-point.entity.js';

/** A question of a waiting point: its id is unique in the point, and it names the call that asked it. */
export interface PointQuestion extends NormalizedQuestion {
  tool_call_id: string;
}

/** One `ask_user_question` call of a model turn whose arguments were valid. */
export interface AskedCall {
  toolCallId: string;
  /** 1-based position among the turn's `ask_user_question` calls (valid or not): stable across attempts. */
  position: number;
  questions: NormalizedQuestion[];
}

/** Model ids never contain `@` (question-schema), so a suffixed id cannot clash with one. */
const suffixed = (questionId: string, position: number) => `${questionId}@${position}`;

/**
 * Every question of one model turn, for one waiting point. A question keeps its id unless an earlier
 * call of the turn already used it; then it becomes `<id>@<position of its call>`.
 */
export function mergeTurnQuestions(calls: AskedCall[]): PointQuestion[] {
  const taken = new Set<string>();
  return calls.flatMap((call) =>
    call.questions.map((question) => {
      const id = taken.has(question.question_id)
        ? suffixed(question.question_id, call.position)
        : question.question_id;
      taken.add(id);
      return { ...question, question_id: id, tool_call_id: call.toolCallId };
    }),
  );
}

/**
 * The answers of one call, keyed by its own question ids, taken from the answers of the whole point.
 * Needs only the call's own questions and position: the suffixed id is looked up first, because a
 * question that got one was shown to the user under it and its plain id belongs to an earlier call.
 */
export function answersOfCall(answers: Answers, call: AskedCall): Answers {
  const own: Answers = {};
  for (const { question_id: id } of call.questions) {
    const answer = answers[suffixed(id, call.position)] ?? answers[id];
    if (answer !== undefined) own[id] = answer;
  }
  return own;
}
