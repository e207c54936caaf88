import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { latestUserUnit, historyUnits } from './history-units.js';

/** A tool result longer than this, before the latest turn, is shown as a preview. */
export const OLD_RESULT_MAX_CHARS = 2000;
const PREVIEW_HEAD_CHARS = 600;
const PREVIEW_TAIL_CHARS = 200;

const previews = new WeakMap<ToolMessage, ToolMessage>();

function previewOf(message: ToolMessage, text: string): ToolMessage {
  let preview = previews.get(message);
  if (preview === undefined) {
    const omitted = text.length - PREVIEW_HEAD_CHARS - PREVIEW_TAIL_CHARS;
    preview = new ToolMessage({
      id: message.id,
      tool_call_id: message.tool_call_id,
      name: message.name,
      status: message.status,
      content:
        `${text.slice(0, PREVIEW_HEAD_CHARS)}\n…[${omitted} characters of this earlier tool result left out ` +
        `to save context; call the tool again if you need them]…\n${text.slice(-PREVIEW_TAIL_CHARS)}`,
    });
    previews.set(message, preview);
  }
  return preview;
}

/**
 * What the model is sent when the history is too long: long tool results of turns before the latest
 * user message shortened to their ends (the graph state keeps them whole). Null when none is long.
 * The same message gets the same preview object on every step (so its token count is kept).
 */
export function withShortOldResults(history: readonly BaseMessage[]): BaseMessage[] | null {
  const units = historyUnits(history);
  const latest = latestUserUnit(units);
  let changed = false;
  const shown = units.flatMap((unit, index) =>
    unit.map((message) => {
      if (index >= latest || !ToolMessage.isInstance(message) || typeof message.content !== 'string')
        return message;
      if (message.content.length <= OLD_RESULT_MAX_CHARS) return message;
      changed = true;
      return previewOf(message, message.content);
    }),
  );
  return changed ? shown : null;
}
