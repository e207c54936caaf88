import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { isSummaryMessage } from './summary-message.js';

/**
 * The history in the pieces it may be cut into: an assistant message that asks for tools goes with the
 * tool messages answering it (a provider refuses a call without its result, and a result without its
 * call); every other message is a piece of its own.
 */
export function historyUnits(history: readonly BaseMessage[]): BaseMessage[][] {
  const units: BaseMessage[][] = [];
  for (const message of history) {
    const previous = units.at(-1);
    const answersPrevious =
      ToolMessage.isInstance(message) &&
      previous !== undefined &&
      previous.some((m) => AIMessage.isInstance(m) && (m.tool_calls?.length ?? 0) > 0);
    if (answersPrevious) previous.push(message);
    else units.push([message]);
  }
  return units;
}

/** A user's message (a summary, though sent with the user role, is not one). */
export const isUserMessage = (message: BaseMessage): boolean =>
  HumanMessage.isInstance(message) && !isSummaryMessage(message);

/** The index of the unit holding the latest user message, or -1. */
export function latestUserUnit(units: readonly BaseMessage[][]): number {
  for (let i = units.length - 1; i >= 0; i--) if (units[i].some(isUserMessage)) return i;
  return -1;
}

/** How the history is cut for a summary: the units summarized, and what stays as it is. */
export interface HistorySplit {
  /** The oldest units, summarized (an earlier summary among them is summarized again). */
  summarized: BaseMessage[][];
  /** The latest user message when it lies in the summarized part: kept verbatim, after the summary. */
  latestUser: BaseMessage | null;
  /** The units after the cut, unchanged. */
  kept: BaseMessage[][];
}

/**
 * Cuts before the unit at `cut` (at least one unit summarized, the last unit always kept). The latest
 * user message is never summarized: when the cut passes it, it is taken out and kept.
 */
export function splitAt(units: readonly BaseMessage[][], cut: number): HistorySplit {
  const bounded = Math.max(1, Math.min(cut, units.length - 1));
  const latest = latestUserUnit(units);
  const summarized: BaseMessage[][] = [];
  let latestUser: BaseMessage | null = null;
  for (let i = 0; i < bounded; i++) {
    if (i === latest) {
      latestUser = units[i][0];
      continue;
    }
    summarized.push(units[i]);
  }
  return { summarized, latestUser, kept: units.slice(bounded) };
}

/**
 * The smallest cut whose kept part fits `budget` (counted by `tokens`), preferring a cut before the
 * latest user message; null when there is nothing to summarize (a history of one or two units).
 */
export function chooseCut(
  units: readonly BaseMessage[][],
  tokens: (unit: readonly BaseMessage[]) => number,
  budget: number,
): number | null {
  if (units.length < 2) return null;
  const latest = latestUserUnit(units);
  // A summary of only the latest user message would replace nothing.
  const summarizable = (cut: number) => units.slice(0, cut).some((_, i) => i !== latest);
  let kept = 0;
  for (const unit of units) kept += tokens(unit);
  for (let cut = 1; cut < units.length; cut++) {
    kept -= tokens(units[cut - 1]);
    if (kept <= budget && summarizable(cut)) return cut;
  }
  const last = units.length - 1;
  return summarizable(last) ? last : null;
}
