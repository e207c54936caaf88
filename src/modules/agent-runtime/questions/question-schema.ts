import { z } from 'zod';

const text = (max: number) => z.string().trim().min(1).max(max);

const optionSchema = z.strictObject({
  label: text(200),
  value: text(200),
  description: z.string().trim().max(500).optional(),
});

const questionSchema = z.strictObject({
  question: text(2000).describe('The question, in the user’s language'),
  question_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, ".", "_" or "-" (at most 64)')
    .optional()
    .describe('Stable id of the question; defaults to q-<position> (1-based)'),
  options: z
    .array(optionSchema)
    .min(1)
    .max(5)
    .optional()
    .describe('Choices (objects with label and value); omit for a free-text question'),
  multi_select: z.boolean().default(false).describe('JSON boolean: several options may be chosen'),
  allow_other: z.boolean().default(true).describe('JSON boolean: free text is accepted besides the options'),
});

const generatedId = (position: number) => `q-${position}`;
const GENERATED = /^q-(\d+)$/;

/**
 * The argument contract of `ask_user_question`: 1-5 questions, strict
 * objects, JSON booleans, object options; text trimmed, defaults filled. Ids are unique, and an
 * explicit id that is the generated id of another position is refused.
 */
export const askUserQuestionSchema = z
  .strictObject({ questions: z.array(questionSchema).min(1).max(5) })
  .superRefine((args, ctx) => {
    const seen = new Set<string>();
    args.questions.forEach((question, index) => {
      const position = index + 1;
      const explicit = question.question_id;
      const generated = explicit === undefined ? null : GENERATED.exec(explicit);
      if (generated !== null && Number(generated[1]) !== position) {
        ctx.addIssue({
          code: 'custom',
          path: ['questions', index, 'question_id'],
          message: `"${explicit}" is the generated id of question ${generated[1]}`,
        });
      }
      const id = explicit ?? generatedId(position);
      if (seen.has(id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['questions', index, 'question_id'],
          message: `duplicate id "${id}"`,
        });
      }
      seen.add(id);
    });
  });

export type AskUserQuestionArgs = z.output<typeof askUserQuestionSchema>;

export interface QuestionOption {
  label: string;
  value: string;
  description?: string;
}

/** A question as stored in the checkpoint and the waiting point, and shown to clients. */
export interface NormalizedQuestion {
  question_id: string;
  question: string;
  options?: QuestionOption[];
  multi_select: boolean;
  allow_other: boolean;
}

export function normalizeQuestions(args: AskUserQuestionArgs): NormalizedQuestion[] {
  return args.questions.map((question, index) => ({
    question_id: question.question_id ?? generatedId(index + 1),
    question: question.question,
    ...(question.options === undefined ? {} : { options: question.options }),
    multi_select: question.multi_select,
    allow_other: question.allow_other,
  }));
}
