import type { RunStatus, ThreadMessage } from '../../api/types';
import type { RunEvent } from '../../stream/run-stream';

export interface ToolResult {
  content: string;
  isError: boolean;
}

/** One thing shown in a conversation, in order. */
export type TimelineItem =
  | { kind: 'user'; key: string; runId: string | null; text: string }
  | { kind: 'assistant'; key: string; runId: string | null; text: string; streaming: boolean }
  | {
      kind: 'tool';
      key: string;
      runId: string | null;
      callId: string;
      name: string;
      args: Record<string, unknown>;
      result: ToolResult | null;
      /** The run waits on the user before this call runs (its approval) or ends (its questions). */
      awaiting?: 'decision' | 'answer';
    }
  | { kind: 'subagent'; key: string; runId: string; childRunId: string; slug: string; status: string }
  | {
      kind: 'compression';
      key: string;
      runId: string;
      status: string;
      tokensBefore: number | null;
      tokensAfter: number | null;
    }
  | { kind: 'unavailable'; key: string; runId: string; name: string; reason: string }
  | { kind: 'error'; key: string; runId: string; code: string; message: string };

/** What the console knows of the run it follows: its status, its usage, what it waits for, its files. */
export interface RunView {
  runId: string;
  status: RunStatus;
  inputTokens: number;
  outputTokens: number;
  waitingKind: 'questions' | 'approval' | null;
  artifacts: string[];
  lastSeq: number;
}

export function newRunView(runId: string, status: RunStatus = 'queued'): RunView {
  return { runId, status, inputTokens: 0, outputTokens: 0, waitingKind: null, artifacts: [], lastSeq: 0 };
}

/** The stored messages of a thread as timeline items: each tool call with its result beside it. */
export function itemsFromMessages(messages: readonly ThreadMessage[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  const tools = new Map<string, Extract<TimelineItem, { kind: 'tool' }>>();
  for (const message of messages) {
    if (message.role === 'user') {
      items.push({ kind: 'user', key: message.id, runId: message.run_id, text: message.content });
    } else if (message.role === 'assistant') {
      if (message.content) {
        items.push({
          kind: 'assistant',
          key: message.id,
          runId: message.run_id,
          text: message.content,
          streaming: false,
        });
      }
      for (const call of message.tool_calls ?? []) {
        const item = toolItem(message.run_id, call.id, call.name, call.args);
        tools.set(call.id, item);
        items.push(item);
      }
    } else if (message.tool_call_id) {
      const item = tools.get(message.tool_call_id);
      if (item) item.result = { content: message.content, isError: looksLikeToolError(message.content) };
    }
  }
  return items;
}

/**
 * Folds one run event into the timeline and the run's view. Events arrive once and in order (the
 * stream drops replays), so every branch may simply append or update.
 */
export function applyRunEvent(items: TimelineItem[], run: RunView, event: RunEvent): void {
  const p = event.payload;
  const key = `${event.run_id}:${event.seq}`;
  run.lastSeq = Math.max(run.lastSeq, event.seq);
  switch (event.type) {
    case 'status':
    case 'done': {
      run.status = p.status as RunStatus;
      if (run.status !== 'waiting') {
        run.waitingKind = null;
        for (const item of items)
          if (item.kind === 'tool' && item.runId === event.run_id) delete item.awaiting;
      }
      if (event.type === 'done')
        for (const item of items) if (item.kind === 'assistant') item.streaming = false;
      return;
    }
    case 'message_delta': {
      const item = assistantItem(items, event.run_id, String(p.message_id));
      item.text += asText(p.delta);
      return;
    }
    case 'message': {
      // A reply made only of tool calls has no text: no empty bubble for it.
      const content = asText(p.content);
      if (!content && !items.some((item) => item.kind === 'assistant' && item.key === String(p.message_id)))
        return;
      const item = assistantItem(items, event.run_id, String(p.message_id));
      item.text = asText(p.content);
      item.streaming = false;
      return;
    }
    case 'tool_call': {
      const callId = String(p.tool_call_id);
      if (findTool(items, callId)) return;
      items.push(toolItem(event.run_id, callId, String(p.name), (p.args ?? {}) as Record<string, unknown>));
      return;
    }
    case 'tool_result': {
      const callId = String(p.tool_call_id);
      let item = findTool(items, callId);
      if (!item) {
        items.push(toolItem(event.run_id, callId, String(p.name), {}));
        item = findTool(items, callId)!;
      }
      item.result = { content: asText(p.content), isError: p.is_error === true };
      delete item.awaiting;
      return;
    }
    case 'waiting': {
      run.waitingKind = p.kind === 'approval' ? 'approval' : 'questions';
      const approvals = Array.isArray(p.approvals) ? (p.approvals as { tool_call_id?: unknown }[]) : [];
      const ids =
        run.waitingKind === 'approval'
          ? approvals.map((a) => String(a.tool_call_id))
          : [String(p.tool_call_id)];
      for (const id of ids) {
        const item = findTool(items, id);
        if (item && !item.result) item.awaiting = run.waitingKind === 'approval' ? 'decision' : 'answer';
      }
      return;
    }
    case 'artifacts':
      for (const path of (p.paths ?? []) as string[])
        if (!run.artifacts.includes(path)) run.artifacts.push(path);
      return;
    case 'usage':
      run.inputTokens += Number(p.input_tokens ?? 0);
      run.outputTokens += Number(p.output_tokens ?? 0);
      return;
    case 'subagent': {
      const childRunId = String(p.run_id);
      const existing = items.find(
        (item): item is Extract<TimelineItem, { kind: 'subagent' }> =>
          item.kind === 'subagent' && item.childRunId === childRunId,
      );
      if (existing) existing.status = String(p.status);
      else
        items.push({
          kind: 'subagent',
          key,
          runId: event.run_id,
          childRunId,
          slug: String(p.subagent_slug),
          status: String(p.status),
        });
      return;
    }
    case 'context_compression':
      items.push({
        kind: 'compression',
        key,
        runId: event.run_id,
        status: String(p.status),
        tokensBefore: typeof p.tokens_before === 'number' ? p.tokens_before : null,
        tokensAfter: typeof p.tokens_after === 'number' ? p.tokens_after : null,
      });
      return;
    case 'unavailable':
      items.push({
        kind: 'unavailable',
        key,
        runId: event.run_id,
        name: asText(p.server) || asText(p.component),
        reason: asText(p.reason) || asText(p.code),
      });
      return;
    case 'error':
      items.push({
        kind: 'error',
        key,
        runId: event.run_id,
        code: String(p.code),
        message: String(p.message),
      });
      return;
    default:
      return;
  }
}

function assistantItem(
  items: TimelineItem[],
  runId: string,
  messageId: string,
): Extract<TimelineItem, { kind: 'assistant' }> {
  const existing = items.find(
    (item): item is Extract<TimelineItem, { kind: 'assistant' }> =>
      item.kind === 'assistant' && item.key === messageId,
  );
  if (existing) return existing;
  const item = { kind: 'assistant' as const, key: messageId, runId, text: '', streaming: true };
  items.push(item);
  return items[items.length - 1] as typeof item;
}

function toolItem(
  runId: string | null,
  callId: string,
  name: string,
  args: Record<string, unknown>,
): Extract<TimelineItem, { kind: 'tool' }> {
  return { kind: 'tool', key: `tool:${callId}`, runId, callId, name, args, result: null };
}

function findTool(
  items: TimelineItem[],
  callId: string,
): Extract<TimelineItem, { kind: 'tool' }> | undefined {
  return items.find(
    (item): item is Extract<TimelineItem, { kind: 'tool' }> => item.kind === 'tool' && item.callId === callId,
  );
}

/** A tool message's text is `{"error": {code, message}}` when the call failed. */
export function looksLikeToolError(content: string): boolean {
  return toolErrorOf(content) !== null;
}

export function toolErrorOf(content: string): { code: string; message: string } | null {
  if (!content.startsWith('{"error"')) return null;
  try {
    const parsed = JSON.parse(content) as { error?: { code?: unknown; message?: unknown } };
    const error = parsed.error;
    if (error && typeof error.code === 'string') return { code: error.code, message: asText(error.message) };
  } catch {
    return null;
  }
  return null;
}

/** A payload field that should be text: anything else reads as empty. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
