import type { NormalizedQuestion } from '../../../src/modules/agent-runtime/questions/question-schema';
import {
  answersOfCall,
  mergeTurnQuestions,
  type AskedCall,
} from '../../../src/modules/agent-runtime/questions/turn-questions';

const q = (question_id: string): NormalizedQuestion => ({
  question_id,
  question: `${question_id}?`,
  multi_select: false,
  allow_other: true,
});

describe('one waiting point for a turn of ask_user_question calls', () => {
  const first: AskedCall = { toolCallId: 'a', position: 1, questions: [q('q-1'), q('format')] };
  const second: AskedCall = { toolCallId: 'b', position: 2, questions: [q('q-1'), q('size')] };
  const third: AskedCall = { toolCallId: 'c', position: 4, questions: [q('q-1'), q('size')] };

  it('keeps ids that are free, suffixes those an earlier call took, and names each question’s call', () => {
    expect(mergeTurnQuestions([first, second, third]).map((x) => [x.question_id, x.tool_call_id])).toEqual([
      ['q-1', 'a'],
      ['format', 'a'],
      ['q-1@2', 'b'],
      ['size', 'b'],
      ['q-1@4', 'c'],
      ['size@4', 'c'],
    ]);
  });

  it('gives each call its own answers under its own ids, also when earlier calls are no longer asked', () => {
    const answers = { 'q-1': 'A', format: 'md', 'q-1@2': 'B', size: 'S', 'q-1@4': 'C', 'size@4': 'L' };
    expect(answersOfCall(answers, first)).toEqual({ 'q-1': 'A', format: 'md' });
    expect(answersOfCall(answers, second)).toEqual({ 'q-1': 'B', size: 'S' });
    expect(answersOfCall(answers, third)).toEqual({ 'q-1': 'C', size: 'L' });
  });
});
