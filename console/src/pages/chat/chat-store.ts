import { defineStore } from 'pinia';
import { reactive, ref, shallowRef } from 'vue';
import { api } from '../../api/client';
import { routes } from '../../api/routes';
import {
  FINAL_STATUSES,
  type Agent,
  type Answers,
  type Decision,
  type Thread,
  type ThreadMessage,
  type ThreadUsage,
  type WaitingPoint,
} from '../../api/types';
import { RunEventCache } from '../../stream/run-event-cache';
import { RunStream, type RunEvent } from '../../stream/run-stream';
import { applyRunEvent, itemsFromMessages, newRunView, type RunView, type TimelineItem } from './timeline';

/**
 * The chat page's state: the agents and threads of the user, the open thread's timeline, and the run it
 * follows over the event stream.
 */
export const useChat = defineStore('chat', () => {
  const agents = ref<Agent[]>([]);
  const agentSlug = ref<string | null>(null);
  const threads = ref<Thread[]>([]);
  const thread = ref<Thread | null>(null);
  const items = ref<TimelineItem[]>([]);
  const run = ref<RunView | null>(null);
  const waitingPoint = ref<WaitingPoint | null>(null);
  const usage = ref<ThreadUsage | null>(null);
  const artifacts = ref<{ path: string; runId: string }[]>([]);
  const connected = ref(true);
  const loading = ref(false);
  const stream = shallowRef<RunStream | null>(null);
  let cache: RunEventCache | null = null;
  // A reload or a closed tab must not lose the events still waiting for the batched write.
  window.addEventListener('pagehide', () => cache?.flush());

  async function loadAgents(): Promise<void> {
    const page = await routes.agents();
    agents.value = page.items.filter((agent) => !agent.is_subagent);
    if (!agentSlug.value || !agents.value.some((agent) => agent.slug === agentSlug.value)) {
      agentSlug.value = agents.value[0]?.slug ?? null;
    }
  }

  async function loadThreads(): Promise<void> {
    threads.value = (await routes.threads()).items;
  }

  /** Opens a thread (null: a new conversation, not created until the first message). */
  async function open(threadId: string | null): Promise<void> {
    stopFollowing();
    items.value = [];
    run.value = null;
    waitingPoint.value = null;
    usage.value = null;
    artifacts.value = [];
    thread.value = null;
    if (!threadId) return;
    loading.value = true;
    try {
      const [opened, messages, state, files] = await Promise.all([
        routes.thread(threadId),
        allMessages(threadId),
        routes.threadState(threadId),
        routes.artifacts(threadId),
      ]);
      thread.value = opened;
      agentSlug.value = opened.agent_slug;
      artifacts.value = files.items.map((file) => ({ path: file.path, runId: file.run_id }));
      const active = state.active_run;
      // The active run is shown from its events; its user message is the only stored row kept.
      const shown = active
        ? messages.filter((message) => message.run_id !== active.id || message.role === 'user')
        : messages;
      items.value = itemsFromMessages(shown);
      if (active) follow(active.id, active.status);
      void refreshUsage();
    } finally {
      loading.value = false;
    }
  }

  async function send(input: string): Promise<string> {
    let current = thread.value;
    if (!current) {
      if (!agentSlug.value) throw new Error('no agent selected');
      current = await routes.createThread(agentSlug.value, titleFrom(input));
      thread.value = current;
      threads.value = [current, ...threads.value];
    }
    const created = await routes.startRun(current.id, input, crypto.randomUUID());
    items.value.push({ kind: 'user', key: `input:${created.run_id}`, runId: created.run_id, text: input });
    follow(created.run_id, created.status);
    return current.id;
  }

  function follow(runId: string, status: RunView['status']): void {
    stopFollowing();
    const view = reactive(newRunView(runId, status));
    run.value = view;
    cache = new RunEventCache(runId);
    for (const event of cache.stored) applyRunEvent(items.value, view, event);
    const ownCache = cache;
    // What the kept events say is waiting (this run, or a subagent of it asking for a decision).
    if (view.waitingKind) void loadWaitingPoint(runId);
    for (const item of items.value)
      if (item.kind === 'subagent' && item.runId === runId && item.status === 'waiting')
        void loadWaitingPoint(item.childRunId);
    const follower = new RunStream({
      url: routes.runEventsPath(runId),
      headers: () => api.authHeaders(),
      after: view.lastSeq,
      onEvent: (event) => onEvent(view, ownCache, event),
      onConnection: (up) => (connected.value = up || stream.value !== follower),
      onEnd: (reason) => {
        if (reason.kind === 'done') ownCache.clear();
        else ownCache.flush();
        if (reason.kind === 'error' && reason.error.status === 401) api.onUnauthorized();
      },
    });
    stream.value = follower;
    connected.value = true;
    void follower.run();
  }

  function onEvent(view: RunView, ownCache: RunEventCache, event: RunEvent): void {
    ownCache.add(event);
    applyRunEvent(items.value, view, event);
    if (event.type === 'waiting') void loadWaitingPoint(view.runId);
    // A subagent that needs a decision is answered at its own run id.
    if (event.type === 'subagent' && event.payload.status === 'waiting')
      void loadWaitingPoint(String(event.payload.run_id));
    if (event.type === 'status' && view.status !== 'waiting' && waitingPoint.value?.run_id === view.runId)
      waitingPoint.value = null;
    if (
      event.type === 'subagent' &&
      event.payload.status !== 'waiting' &&
      waitingPoint.value?.run_id === event.payload.run_id
    )
      waitingPoint.value = null;
    if (event.type === 'artifacts') {
      for (const path of (event.payload.paths ?? []) as string[]) {
        if (!artifacts.value.some((file) => file.path === path))
          artifacts.value.push({ path, runId: view.runId });
      }
    }
    if (event.type === 'done') {
      void refreshUsage();
      void loadThreads();
    }
  }

  async function loadWaitingPoint(runId: string): Promise<void> {
    const following = stream.value;
    const point = await routes.waitingPoint(runId);
    if (stream.value === following && point.status === 'open') waitingPoint.value = point;
  }

  async function refreshUsage(): Promise<void> {
    if (thread.value) usage.value = await routes.threadUsage(thread.value.id);
  }

  async function cancel(): Promise<void> {
    if (!run.value) return;
    const answer = await routes.cancelRun(run.value.runId);
    if (FINAL_STATUSES.includes(answer.status)) run.value.status = answer.status;
  }

  async function answer(answers: Answers): Promise<void> {
    const point = waitingPoint.value;
    if (!point) return;
    await routes.answer(point.run_id, answers, `answer:${point.id}`);
    waitingPoint.value = null;
  }

  async function decide(decisions: Record<string, Decision>): Promise<void> {
    const point = waitingPoint.value;
    if (!point) return;
    await routes.decide(point.run_id, decisions, `decide:${point.id}`);
    waitingPoint.value = null;
  }

  /** Uploads a file into the open conversation's folder; returns the path agents see. */
  async function upload(file: File): Promise<string> {
    if (!thread.value) throw new Error('no conversation is open');
    return (await routes.upload(thread.value.id, file)).path;
  }

  async function rename(threadId: string, title: string): Promise<void> {
    const renamed = await routes.renameThread(threadId, title);
    threads.value = threads.value.map((item) => (item.id === threadId ? renamed : item));
    if (thread.value?.id === threadId) thread.value = renamed;
  }

  async function remove(threadId: string): Promise<void> {
    await routes.deleteThread(threadId);
    threads.value = threads.value.filter((item) => item.id !== threadId);
    if (thread.value?.id === threadId) await open(null);
  }

  /** Forgets everything of the user who signed out (the next one starts clean in the same tab). */
  function clear(): void {
    stopFollowing();
    agents.value = [];
    agentSlug.value = null;
    threads.value = [];
    thread.value = null;
    items.value = [];
    run.value = null;
    waitingPoint.value = null;
    usage.value = null;
    artifacts.value = [];
  }

  function stopFollowing(): void {
    stream.value?.close();
    stream.value = null;
    cache?.flush();
    cache = null;
  }

  return {
    agents,
    agentSlug,
    threads,
    thread,
    items,
    run,
    waitingPoint,
    usage,
    artifacts,
    connected,
    loading,
    loadAgents,
    loadThreads,
    open,
    send,
    cancel,
    answer,
    decide,
    upload,
    rename,
    remove,
    stopFollowing,
    clear,
  };
});

async function allMessages(threadId: string): Promise<ThreadMessage[]> {
  const messages: ThreadMessage[] = [];
  let cursor: string | undefined;
  do {
    const page = await routes.messages(threadId, cursor);
    messages.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return messages;
}

/** A new conversation is named after its first message (the user can rename it). */
export function titleFrom(input: string): string {
  const line = input.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
