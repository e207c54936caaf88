import type { FakeReply, RecordedRequest } from '../fake-openai/fake-openai-script';
import type { FakeOpenAiServer } from '../fake-openai/fake-openai-server';
import type { TestContext } from '../test-app';
import { userInput } from './subagent-scripts';

type Body = RecordedRequest['body'];
export type Route = (
  body: Body,
) => FakeReply | { reply: FakeReply; delayMs?: number; after?: Promise<unknown> };

/**
 * Routes the fake model's requests by the run's user message: each test names its parent inputs and
 * child task descriptions, so runs executing in parallel get their own replies in any order.
 */
export class SubagentScripts {
  private readonly routes = new Map<string, Route>();

  constructor(fake: FakeOpenAiServer) {
    fake.route((body) => this.routes.get(userInput(body))?.(body));
  }

  on(input: string, route: Route): this {
    this.routes.set(input, route);
    return this;
  }
}

/** The requests the model received for the run whose user message is `input`, in order. */
export const requestsFor = (fake: FakeOpenAiServer, input: string) =>
  fake.requests.filter((request) => userInput(request.body) === input);

export interface RunRow {
  id: string;
  status: string;
  thread_id: string;
  parent_run_id: string | null;
  error: { code: string } | null;
}

export async function childRuns(ctx: TestContext, parentRunId: string): Promise<RunRow[]> {
  return ctx.dataSource.query<RunRow[]>(
    `SELECT id, status, thread_id, parent_run_id, error FROM runs WHERE parent_run_id = $1 ORDER BY created_at`,
    [parentRunId],
  );
}

export async function eventsOf(ctx: TestContext, runId: string) {
  return ctx.dataSource.query<{ seq: number; type: string; payload: Record<string, unknown> }[]>(
    `SELECT seq, type, payload FROM run_events WHERE run_id = $1 ORDER BY seq`,
    [runId],
  );
}
