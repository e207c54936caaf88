import { HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { randomUUID } from 'node:crypto';

/** Where a summary message keeps what it stands for (never sent to the provider). */
const SUMMARY_KWARG = 'context_summary';

interface SummaryMark {
  /** Ids of the messages the summary replaced in the graph state, earlier summaries' included. */
  summarized_ids: string[];
  /** The run whose model call made it (or null, a compaction on request). */
  run_id: string | null;
}

/**
 * The message that stands for the oldest turns of a thread in its graph state: sent with the user role
 * (every provider accepts it anywhere, unlike a second system message), its text says what it is.
 */
export function summaryMessage(text: string, replaced: readonly BaseMessage[], runId: string | null) {
  const mark: SummaryMark = { summarized_ids: summarizedIds(replaced), run_id: runId };
  return new HumanMessage({
    id: `summary-${randomUUID()}`,
    content: `${SUMMARY_HEADER}\n\n${text}`,
    additional_kwargs: { [SUMMARY_KWARG]: mark },
  });
}

export const SUMMARY_HEADER =
  '[Summary of the earlier conversation, written when it grew too long for the context window]';

export function isSummaryMessage(message: BaseMessage): boolean {
  return HumanMessage.isInstance(message) && message.additional_kwargs?.[SUMMARY_KWARG] !== undefined;
}

/**
 * The ids the messages stand for: their own, and those an earlier summary among them replaced. A
 * resumed run compares the checkpoint's ids with its stored messages; a summarized one is not lost.
 */
export function summarizedIds(messages: readonly BaseMessage[]): string[] {
  const ids: string[] = [];
  for (const message of messages) {
    if (isSummaryMessage(message)) {
      const mark = message.additional_kwargs[SUMMARY_KWARG] as SummaryMark;
      ids.push(...mark.summarized_ids);
    } else if (message.id !== undefined) ids.push(message.id);
  }
  return ids;
}
