import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
  type UsageMetadata,
} from '@langchain/core/messages';
import type { RetryingChatOpenAI } from '../model/retrying-chat-openai.js';
import { isSummaryMessage, SUMMARY_HEADER } from './summary-message.js';

/** Starts the system prompt of every summary request (the test model recognises it by this). */
export const SUMMARY_PROMPT_MARKER = 'You condense the earlier part of a conversation';

const SUMMARY_PROMPT =
  `${SUMMARY_PROMPT_MARKER} between a user and an AI assistant that uses tools, so the assistant ` +
  'can go on with it without the full text. Write a concise summary that keeps: what the user asked ' +
  'for and decided, facts and figures found, files read or written (with their paths), tool results ' +
  'that matter later, what was done and what is still open. Use plain prose and short lists; do not ' +
  'invent anything and do not address the user. An earlier summary in the transcript is part of it.';

/** One tool result in a transcript is cut to this; the summary needs its gist, not all of it. */
const TRANSCRIPT_RESULT_CHARS = 4000;

/** What one summary call gave: the text, and the provider's usage (to be recorded as "summary"). */
export interface SummaryResult {
  text: string;
  usage?: UsageMetadata;
}

const textOf = (content: BaseMessage['content']) =>
  typeof content === 'string' ? content : JSON.stringify(content);

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max)}\n…[${text.length - max} more characters]`;

/** The messages as a plain transcript (one request message: no tool call format to get right). */
export function transcriptOf(messages: readonly BaseMessage[], maxChars: number): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (isSummaryMessage(message))
      lines.push(`EARLIER SUMMARY:\n${textOf(message.content).replace(SUMMARY_HEADER, '').trim()}`);
    else if (HumanMessage.isInstance(message)) lines.push(`USER:\n${textOf(message.content)}`);
    else if (AIMessage.isInstance(message)) {
      const calls = (message.tool_calls ?? []).map(
        (call) => `CALL ${call.name} ${JSON.stringify(call.args)} (id ${call.id})`,
      );
      lines.push(['ASSISTANT:', textOf(message.content), ...calls].filter((l) => l !== '').join('\n'));
    } else if (ToolMessage.isInstance(message))
      lines.push(
        `RESULT of ${message.name ?? 'tool'} (id ${message.tool_call_id}):\n` +
          clip(textOf(message.content), TRANSCRIPT_RESULT_CHARS),
      );
  }
  // Too long for one request: its oldest part goes (a summary's own window is the model's).
  const transcript = lines.join('\n\n');
  return transcript.length <= maxChars ? transcript : `…\n${transcript.slice(-maxChars)}`;
}

/**
 * Summarizes `messages` with the run's model (no tools offered). Throws what the model call throws;
 * the caller keeps the history as it was.
 */
export async function summarize(
  model: RetryingChatOpenAI,
  messages: readonly BaseMessage[],
  options: { maxTranscriptChars: number; signal?: AbortSignal },
): Promise<SummaryResult> {
  const turn = await model.streamTurn(
    [new SystemMessage(SUMMARY_PROMPT), new HumanMessage(transcriptOf(messages, options.maxTranscriptChars))],
    [],
    { signal: options.signal, onText: () => undefined, purpose: 'summary' },
  );
  const text = turn.content.trim();
  if (text === '') throw new Error('the model returned an empty summary');
  return { text, ...(turn.usage === undefined ? {} : { usage: turn.usage }) };
}
