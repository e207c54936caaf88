import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { AgentTool, type ToolInvocation } from '../../tools/index.js';
import { MarkRecorder, type SavedMark } from './mark-recorder.js';

export const REASON_MAX_CHARS = 4000;

export const markForImprovementSchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(1)
    .max(REASON_MAX_CHARS)
    .describe(
      'The actual problem or lesson, the steps or errors involved, what was tried and the current result. ' +
        'Say which parts are facts and which are guesses. No credentials, no unrelated raw user content.',
    ),
});

export const MARK_FOR_IMPROVEMENT_DESCRIPTION = [
  'Record a lead for improving this agent, for later review by people. Call it on your own initiative, ' +
    'without waiting for the user to ask or for the problem to be solved, when: the user corrects you; ' +
    'the user is repeatedly unsatisfied; a tool fails; or a capability needed to finish the task is missing. ' +
    'Also call it when you find a reusable method or script that is grounded in what actually worked. ' +
    'Finishing a task normally needs no mark.',
  'In `reason` (1-4000 characters) describe the actual problem or lesson, the relevant steps or errors, ' +
    'what you already tried and the current result; clearly separate facts from guesses. ' +
    'Never include credentials (passwords, keys, tokens) or raw user content unrelated to the problem.',
  'Do not record the same problem or lesson twice; record again only with new facts or for a different problem.',
  'A mark is only a lead: it does not verify the lesson, change any skill, or read files named in the text.',
  'After recording, continue the original task. If recording itself fails, do not call this tool again in a ' +
    'loop and do not claim that the mark was saved.',
].join('\n');

/** The `mark_for_improvement` base tool: in every normal agent graph, whatever the tool selection. */
@Injectable()
export class MarkForImprovementTool {
  constructor(private readonly recorder: MarkRecorder) {}

  @AgentTool({
    name: 'mark_for_improvement',
    category: 'builtin',
    tags: ['反馈', '复盘'],
    displayName: '记录改进线索',
    description: MARK_FOR_IMPROVEMENT_DESCRIPTION,
    schema: markForImprovementSchema,
  })
  mark(args: z.infer<typeof markForImprovementSchema>, invocation: ToolInvocation): Promise<SavedMark> {
    return this.recorder.record(invocation, args.reason);
  }
}
