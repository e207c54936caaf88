import { Injectable } from '@nestjs/common';
import { AgentTool } from '../../tools/index.js';
import { askUserQuestionSchema, normalizeQuestions, type AskUserQuestionArgs } from './question-schema.js';

export const ASK_USER_QUESTION = 'ask_user_question';

/**
 * Validates and normalizes the questions; it has no side effect. The run session then interrupts the
 * graph with them: the waiting point is written after the interrupt, and on resume this runs again and
 * the interrupt returns the answers.
 */
@Injectable()
export class AskUserQuestionTool {
  @AgentTool({
    name: ASK_USER_QUESTION,
    category: 'builtin',
    tags: ['交互'],
    displayName: '向用户提问',
    description:
      'Ask the user 1-5 questions and wait for the answers before continuing. Use it when a decision ' +
      'needs information only the user has. `questions` is a JSON array; each item is an object with a ' +
      'non-empty `question`, optional `question_id`, optional `options` (up to 5 objects with `label` and ' +
      '`value`, optional `description`; omit options for a free-text question), `multi_select` and ' +
      '`allow_other` as JSON booleans (defaults false and true). The answers come back keyed by question_id.',
    schema: askUserQuestionSchema,
    forbiddenForSubagents: true,
  })
  ask(args: AskUserQuestionArgs): Promise<{ questions: ReturnType<typeof normalizeQuestions> }> {
    return Promise.resolve({ questions: normalizeQuestions(args) });
  }
}
