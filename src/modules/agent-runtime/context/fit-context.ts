import type { BaseMessage, UsageMetadata } from '@langchain/core/messages';
import { Logger } from '@nestjs/common';
import type { NewRunEvent } from '../events/run-event.js';
import type { FunctionTool, RetryingChatOpenAI } from '../model/retrying-chat-openai.js';
import { RunsErrors } from '../runs/runs.errors.js';
import type { ContextLimits } from './context-limits.js';
import { chooseCut, historyUnits, splitAt } from './history-units.js';
import { withShortOldResults } from './request-view.js';
import { summaryMessage } from './summary-message.js';
import { summarize } from './summarizer.js';
import { tokenCounterFor, type TokenCounter } from './token-estimate.js';

/** What fitting a request needs from its caller (a run's session, or a compaction on request). */
export interface ContextFitPorts {
  model: RetryingChatOpenAI;
  context: ContextLimits;
  signal: AbortSignal;
  /** The run the summary is made in, or null. */
  runId: string | null;
  /** `context_compression` events (the lease holder's emit in a run). */
  emit(events: NewRunEvent[]): Promise<unknown>;
  /** Saves a summary's full text under the thread workdir's `.summaries/<name>.md`. */
  saveSummary(name: string, text: string): Promise<unknown>;
  /** Counts the summary call (purpose `summary`), once it was made: the provider charged for it. */
  recordSummaryCall(usage: UsageMetadata | undefined): Promise<unknown>;
}

/** What a model call sends, and the history that replaces the graph state's when it was summarized. */
export interface FittedContext {
  /** The history as the model is shown it (the system prompt apart). */
  shown: BaseMessage[];
  /** The thread's new history (a summary, then the turns kept), or null when it was not summarized. */
  compacted: BaseMessage[] | null;
}

/** After a summary the kept turns take at most this share of the room the threshold leaves them. */
const KEPT_SHARE = 0.5;
/** Characters per token assumed for the transcript a summary request may hold. */
const TRANSCRIPT_CHARS_PER_TOKEN = 3;

/** Its lines carry the run's log fields (`RunLogContext`). */
const logger = new Logger('ContextFit');

/**
 * Fits a model request into the model's context window. Under `CONTEXT_COMPRESSION_RATIO` of the
 * window it goes as it is. Above, long tool results of earlier turns are shortened in what is sent;
 * if it is still above, the oldest turns are summarized by the model into one message that replaces
 * them in the thread's graph state (`compacted`), the full text saved under `.summaries/`. `force`
 * (the provider refused the request as too long) summarizes whatever the estimate says. A failed
 * summary leaves the history as it was: the request goes as it is when it fits the window, otherwise
 * the run fails with `runs.context_overflow`.
 */
export async function fitContext(
  ports: ContextFitPorts,
  history: BaseMessage[],
  system: BaseMessage[],
  tools: FunctionTool[],
  options: {
    force: boolean;
    /** Tokens the turns kept after a summary may take (default: half the room under the threshold). */
    keptTokens?: number;
  },
): Promise<FittedContext> {
  const { model, context } = ports;
  const counter = tokenCounterFor(model.model);
  const count = (messages: BaseMessage[]) => counter.request([...system, ...messages], tools);
  const threshold = context.compressAboveTokens;
  if (!options.force && counter.upperBound([...system, ...history], tools) <= threshold)
    return { shown: history, compacted: null };
  const before = count(history);
  if (!options.force && before <= threshold) return { shown: history, compacted: null };

  const shortened = withShortOldResults(history) ?? history;
  const shortenedTokens = shortened === history ? before : count(shortened);
  if (!options.force && shortenedTokens <= threshold) return { shown: shortened, compacted: null };

  const fixed = counter.request(system, tools);
  // The system prompt and tools alone pass the threshold: no summary could bring the request under it,
  // so one is made only when the request does not fit the window (not on every step).
  if (!options.force && fixed >= threshold && shortenedTokens <= context.windowTokens)
    return { shown: shortened, compacted: null };
  const kept = options.keptTokens ?? Math.max(0, (threshold - fixed) * KEPT_SHARE);
  const split = splitForSummary(counter, history, shortened, kept);
  const proceedAsIs = (): FittedContext => {
    if (shortenedTokens <= context.windowTokens && !options.force)
      return { shown: shortened, compacted: null };
    throw RunsErrors.contextOverflow({
      tokens: shortenedTokens,
      window_tokens: context.windowTokens,
      model: model.model,
    });
  };
  if (split === null) return proceedAsIs();

  await ports.emit([{ type: 'context_compression', payload: { status: 'started', tokens_before: before } }]);
  let compacted: BaseMessage[];
  try {
    const replaced = split.summarized.flat();
    const summary = await summarize(model, replaced, {
      maxTranscriptChars: Math.max(1000, (context.windowTokens - fixed) * TRANSCRIPT_CHARS_PER_TOKEN * 0.8),
      signal: ports.signal,
    });
    await ports.recordSummaryCall(summary.usage);
    const message = summaryMessage(summary.text, replaced, ports.runId);
    compacted = [message, ...(split.latestUser === null ? [] : [split.latestUser]), ...split.kept.flat()];
    await ports.saveSummary(`${new Date().toISOString().replace(/[:.]/g, '-')}-${message.id}`, summary.text);
  } catch (error) {
    if (ports.signal.aborted) throw error;
    logger.warn({ err: error }, 'the history could not be summarized');
    await ports.emit([{ type: 'context_compression', payload: { status: 'failed', tokens_before: before } }]);
    return proceedAsIs();
  }
  const shown = withShortOldResults(compacted) ?? compacted;
  const after = count(shown);
  await ports.emit([
    {
      type: 'context_compression',
      payload: { status: 'completed', tokens_before: before, tokens_after: after },
    },
  ]);
  if (after > context.windowTokens)
    throw RunsErrors.contextOverflow({
      tokens: after,
      window_tokens: context.windowTokens,
      model: model.model,
    });
  return { shown, compacted };
}

/** Where to cut: counted on what is sent (shortened results), cut in the history itself. */
function splitForSummary(
  counter: TokenCounter,
  history: BaseMessage[],
  shortened: BaseMessage[],
  budget: number,
) {
  const units = historyUnits(history);
  const shownUnits = historyUnits(shortened);
  const tokens = new Map(
    units.map((unit, i) => [unit, shownUnits[i].reduce((n, m) => n + counter.message(m), 0)]),
  );
  const cut = chooseCut(units, (unit) => tokens.get(unit as BaseMessage[]) ?? 0, budget);
  return cut === null ? null : splitAt(units, cut);
}
