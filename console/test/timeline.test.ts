import { describe, expect, it } from 'vitest';
import type { ThreadMessage } from '../src/api/types';
import {
  applyRunEvent,
  asText,
  itemsFromMessages,
  looksLikeToolError,
  newRunView,
  toolErrorOf,
  type TimelineItem,
} from '../src/pages/chat/timeline';
import { prettyJson, safeHttpUrl, viewToolResult } from '../src/pages/chat/tool-result-view';
import type { RunEvent } from '../src/stream/run-stream';

const RUN = 'run-1';

/** Numbers events from 1, as the stream does. */
function numbered(events: [string, Record<string, unknown>][], runId = RUN): RunEvent[] {
  return events.map(([type, payload], index) => ({
    run_id: runId,
    seq: index + 1,
    type,
    payload,
    created_at: '2025-01-01T00:00:00.000Z',
  }));
}

function fold(events: readonly RunEvent[], items: TimelineItem[] = []) {
  const run = newRunView(RUN);
  for (const event of events) applyRunEvent(items, run, event);
  return { items, run };
}

const searchError = '{"error":{"code":"tools.timeout","message":"The search took too long."}}';

/** A run that calls one tool, as docs/api.md "Run events" describes it. */
const ONE_TOOL_RUN = numbered([
  ['status', { status: 'queued' }],
  ['status', { status: 'running' }],
  ['message_delta', { message_id: 'm1', delta: 'Let me ' }],
  ['message_delta', { message_id: 'm1', delta: 'search ' }],
  ['message_delta', { message_id: 'm1', delta: 'that.' }],
  [
    'message',
    {
      message_id: 'm1',
      role: 'assistant',
      content: 'Let me search that.',
      tool_calls: [{ id: 'call-1', name: 'web_search', args: { query: 'vue' } }],
    },
  ],
  ['tool_call', { tool_call_id: 'call-1', name: 'web_search', args: { query: 'vue' } }],
  ['usage', { model: 'm', input_tokens: 100, output_tokens: 20, cached_tokens: 0 }],
  ['tool_result', { tool_call_id: 'call-1', name: 'web_search', content: '{"results":[]}', is_error: false }],
  ['message_delta', { message_id: 'm2', delta: 'Nothing found.' }],
  ['message', { message_id: 'm2', role: 'assistant', content: 'Nothing found.' }],
  ['usage', { model: 'm', input_tokens: 150, output_tokens: 5, cached_tokens: 80 }],
  ['status', { status: 'completed' }],
  ['done', { status: 'completed' }],
]);

describe('applyRunEvent', () => {
  it('folds a run that calls one tool into its assistant messages, its tool call, usage and status', () => {
    const { items, run } = fold(ONE_TOOL_RUN);
    expect(items).toEqual([
      { kind: 'assistant', key: 'm1', runId: RUN, text: 'Let me search that.', streaming: false },
      {
        kind: 'tool',
        key: 'tool:call-1',
        runId: RUN,
        callId: 'call-1',
        name: 'web_search',
        args: { query: 'vue' },
        result: { content: '{"results":[]}', isError: false },
      },
      { kind: 'assistant', key: 'm2', runId: RUN, text: 'Nothing found.', streaming: false },
    ]);
    expect(run).toEqual({
      runId: RUN,
      status: 'completed',
      inputTokens: 250,
      outputTokens: 25,
      waitingKind: null,
      artifacts: [],
      lastSeq: 14,
    });
  });

  it('shows the streamed text of a message as it arrives, streaming until its message event', () => {
    const items: TimelineItem[] = [];
    const run = newRunView(RUN);
    const texts: string[] = [];
    for (const event of ONE_TOOL_RUN.slice(0, 6)) {
      applyRunEvent(items, run, event);
      const item = items.find((each) => each.kind === 'assistant');
      if (item?.kind === 'assistant') texts.push(`${item.text}|${item.streaming}`);
    }
    expect(texts).toEqual([
      'Let me |true',
      'Let me search |true',
      'Let me search that.|true',
      'Let me search that.|false',
    ]);
    expect(run.status).toBe('running');
  });

  it('follows the status through the run', () => {
    const statuses: string[] = [];
    const items: TimelineItem[] = [];
    const run = newRunView(RUN);
    expect(run.status).toBe('queued');
    for (const event of ONE_TOOL_RUN) {
      applyRunEvent(items, run, event);
      statuses.push(run.status);
    }
    expect([...new Set(statuses)]).toEqual(['queued', 'running', 'completed']);
  });

  it('replaces the streamed text with the full content of the message event', () => {
    const { items } = fold(
      numbered([
        ['message_delta', { message_id: 'm1', delta: 'Partial' }],
        ['message', { message_id: 'm1', role: 'assistant', content: 'Full answer.' }],
      ]),
    );
    expect(items).toEqual([
      { kind: 'assistant', key: 'm1', runId: RUN, text: 'Full answer.', streaming: false },
    ]);
  });

  it('adds no bubble for a message made only of tool calls', () => {
    const { items } = fold(
      numbered([
        ['message', { message_id: 'm1', role: 'assistant', content: '', tool_calls: [{ id: 'c1' }] }],
        ['tool_call', { tool_call_id: 'c1', name: 'ls', args: {} }],
      ]),
    );
    expect(items.map((item) => item.kind)).toEqual(['tool']);
  });

  it('keeps one tool item per call id, even when the tool_call event comes twice', () => {
    const { items } = fold(
      numbered([
        ['tool_call', { tool_call_id: 'c1', name: 'ls', args: { path: '.' } }],
        ['tool_call', { tool_call_id: 'c1', name: 'ls', args: { path: '.' } }],
      ]),
    );
    expect(items).toHaveLength(1);
  });

  it('makes a tool item for a result whose call it has not seen, and marks is_error results', () => {
    const { items } = fold(
      numbered([['tool_result', { tool_call_id: 'c9', name: 'run', content: searchError, is_error: true }]]),
    );
    expect(items).toEqual([
      {
        kind: 'tool',
        key: 'tool:c9',
        runId: RUN,
        callId: 'c9',
        name: 'run',
        args: {},
        result: { content: searchError, isError: true },
      },
    ]);
  });

  it('stops every assistant item streaming when the run is done', () => {
    const { items } = fold(
      numbered([
        ['message_delta', { message_id: 'm1', delta: 'Cut sh' }],
        ['done', { status: 'cancelled' }],
      ]),
    );
    expect(items).toEqual([{ kind: 'assistant', key: 'm1', runId: RUN, text: 'Cut sh', streaming: false }]);
  });

  it('records what the run waits for, and forgets it when the run goes on', () => {
    const items: TimelineItem[] = [];
    const run = newRunView(RUN);
    const [waitingStatus, waiting, running] = numbered([
      ['status', { status: 'waiting' }],
      ['waiting', { kind: 'approval', waiting_point_id: 'w1' }],
      ['status', { status: 'running' }],
    ]);
    applyRunEvent(items, run, waitingStatus);
    applyRunEvent(items, run, waiting);
    expect(run).toMatchObject({ status: 'waiting', waitingKind: 'approval' });
    applyRunEvent(items, run, running);
    expect(run).toMatchObject({ status: 'running', waitingKind: null });
    applyRunEvent(items, run, { ...waiting, seq: 4, payload: { kind: 'questions' } });
    expect(run.waitingKind).toBe('questions');
  });

  it('collects artifact paths once each', () => {
    const { run } = fold(
      numbered([
        ['artifacts', { paths: ['report.md', 'chart.png'] }],
        ['artifacts', { paths: ['report.md', 'data.csv'] }],
      ]),
    );
    expect(run.artifacts).toEqual(['report.md', 'chart.png', 'data.csv']);
  });

  it('keeps one subagent item per child run, updated with its status', () => {
    const { items } = fold(
      numbered([
        ['subagent', { run_id: 'child-1', thread_id: 't2', subagent_slug: 'researcher', status: 'running' }],
        [
          'subagent',
          { run_id: 'child-1', thread_id: 't2', subagent_slug: 'researcher', status: 'completed' },
        ],
      ]),
    );
    expect(items).toEqual([
      {
        kind: 'subagent',
        key: `${RUN}:1`,
        runId: RUN,
        childRunId: 'child-1',
        slug: 'researcher',
        status: 'completed',
      },
    ]);
  });

  it('adds compression, unavailable and error items', () => {
    const { items } = fold(
      numbered([
        ['context_compression', { status: 'completed', tokens_before: 9000, tokens_after: 2000 }],
        ['context_compression', { status: 'started', tokens_before: 9000 }],
        ['unavailable', { component: 'mcp', server: 'files', reason: 'timeout', available: false }],
        ['unavailable', { component: 'mcp', code: 'mcp.unreachable', available: false }],
        ['error', { code: 'models.failed', message: 'The model failed.' }],
      ]),
    );
    expect(items).toEqual([
      {
        kind: 'compression',
        key: `${RUN}:1`,
        runId: RUN,
        status: 'completed',
        tokensBefore: 9000,
        tokensAfter: 2000,
      },
      {
        kind: 'compression',
        key: `${RUN}:2`,
        runId: RUN,
        status: 'started',
        tokensBefore: 9000,
        tokensAfter: null,
      },
      { kind: 'unavailable', key: `${RUN}:3`, runId: RUN, name: 'files', reason: 'timeout' },
      { kind: 'unavailable', key: `${RUN}:4`, runId: RUN, name: 'mcp', reason: 'mcp.unreachable' },
      { kind: 'error', key: `${RUN}:5`, runId: RUN, code: 'models.failed', message: 'The model failed.' },
    ]);
  });

  it('ignores event types it does not know but still advances the position', () => {
    const { items, run } = fold(numbered([['something_new', { x: 1 }]]));
    expect(items).toEqual([]);
    expect(run.lastSeq).toBe(1);
  });

  it('appends the events of a run after the items of the stored messages', () => {
    const stored = itemsFromMessages([message({ id: 'u1', role: 'user', content: 'Search vue' })]);
    const { items } = fold(ONE_TOOL_RUN, stored);
    expect(items.map((item) => item.kind)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});

function message(fields: Partial<ThreadMessage> & Pick<ThreadMessage, 'id' | 'role'>): ThreadMessage {
  return { run_id: RUN, content: '', created_at: '2025-01-01T00:00:00.000Z', ...fields };
}

describe('applyRunEvent: calls waiting on the user', () => {
  it('marks the calls of an approval point as awaiting a decision until the run goes on', () => {
    const { items } = fold(
      numbered([
        ['tool_call', { tool_call_id: 'c1', name: 'write_file', args: {} }],
        ['tool_call', { tool_call_id: 'c2', name: 'ls', args: {} }],
        [
          'waiting',
          { kind: 'approval', tool_call_id: 'c1', approvals: [{ tool_call_id: 'c1', name: 'write_file' }] },
        ],
        ['status', { status: 'waiting' }],
      ]),
    );
    const tools = items.filter((item) => item.kind === 'tool');
    expect(tools.map((item) => [item.callId, item.awaiting])).toEqual([
      ['c1', 'decision'],
      ['c2', undefined],
    ]);
    const resumed = fold(numbered([['status', { status: 'queued' }]]), items);
    expect(resumed.items.filter((item) => item.kind === 'tool').map((item) => item.awaiting)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('marks the question call as awaiting an answer, and clears it with its result', () => {
    const { items } = fold(
      numbered([
        ['tool_call', { tool_call_id: 'q1', name: 'ask_user_question', args: {} }],
        ['waiting', { kind: 'questions', tool_call_id: 'q1', questions: [] }],
      ]),
    );
    expect(items.find((item) => item.kind === 'tool')).toMatchObject({ awaiting: 'answer' });
    fold(
      numbered([
        ['tool_result', { tool_call_id: 'q1', name: 'ask_user_question', content: '{}', is_error: false }],
      ]),
      items,
    );
    expect(items.find((item) => item.kind === 'tool')).not.toHaveProperty('awaiting');
  });
});

describe('itemsFromMessages', () => {
  const messages: ThreadMessage[] = [
    message({ id: 'u1', role: 'user', content: 'Find and read it.', run_id: null }),
    message({
      id: 'a1',
      role: 'assistant',
      content: 'Looking.',
      tool_calls: [
        { id: 'c1', name: 'web_search', args: { query: 'x' } },
        { id: 'c2', name: 'read_file', args: { path: 'a' } },
      ],
    }),
    message({ id: 't2', role: 'tool', tool_call_id: 'c2', name: 'read_file', content: searchError }),
    message({ id: 't1', role: 'tool', tool_call_id: 'c1', name: 'web_search', content: '{"results":[]}' }),
    message({ id: 'a2', role: 'assistant', content: '', tool_calls: [{ id: 'c3', name: 'ls', args: {} }] }),
    message({ id: 'a3', role: 'assistant', content: 'Done.' }),
  ];

  it('lists user and assistant messages and each tool call, paired with its result', () => {
    expect(itemsFromMessages(messages)).toEqual([
      { kind: 'user', key: 'u1', runId: null, text: 'Find and read it.' },
      { kind: 'assistant', key: 'a1', runId: RUN, text: 'Looking.', streaming: false },
      {
        kind: 'tool',
        key: 'tool:c1',
        runId: RUN,
        callId: 'c1',
        name: 'web_search',
        args: { query: 'x' },
        result: { content: '{"results":[]}', isError: false },
      },
      {
        kind: 'tool',
        key: 'tool:c2',
        runId: RUN,
        callId: 'c2',
        name: 'read_file',
        args: { path: 'a' },
        result: { content: searchError, isError: true },
      },
      { kind: 'tool', key: 'tool:c3', runId: RUN, callId: 'c3', name: 'ls', args: {}, result: null },
      { kind: 'assistant', key: 'a3', runId: RUN, text: 'Done.', streaming: false },
    ]);
  });

  it('ignores a tool result whose call is unknown', () => {
    expect(
      itemsFromMessages([message({ id: 't', role: 'tool', tool_call_id: 'nope', content: 'x' })]),
    ).toEqual([]);
  });

  it('does not mark a result as an error for merely mentioning an error', () => {
    const items = itemsFromMessages([
      message({ id: 'a', role: 'assistant', tool_calls: [{ id: 'c', name: 'grep', args: {} }] }),
      message({ id: 't', role: 'tool', tool_call_id: 'c', content: '{"errors":0,"error_lines":[]}' }),
    ]);
    expect(items[0]).toMatchObject({ result: { isError: false } });
  });
});

describe('tool errors', () => {
  it('reads the code and message of an error result', () => {
    expect(toolErrorOf(searchError)).toEqual({ code: 'tools.timeout', message: 'The search took too long.' });
    expect(looksLikeToolError(searchError)).toBe(true);
  });

  it.each([
    ['plain text', 'error: nothing'],
    ['an error without a code', '{"error":{"message":"x"}}'],
    ['an error whose code is not text', '{"error":{"code":5}}'],
    ['broken JSON', '{"error":{"code":"x"'],
    ['an error that is not an object', '{"error":"boom"}'],
  ])('does not take %s for an error result', (_name, content) => {
    expect(toolErrorOf(content)).toBeNull();
    expect(looksLikeToolError(content)).toBe(false);
  });

  it('reads a missing message as empty text', () => {
    expect(toolErrorOf('{"error":{"code":"tools.x"}}')).toEqual({ code: 'tools.x', message: '' });
  });

  it('reads only strings as text', () => {
    expect([asText('a'), asText(1), asText(null), asText(undefined), asText({})]).toEqual([
      'a',
      '',
      '',
      '',
      '',
    ]);
  });
});

describe('viewToolResult', () => {
  it('shows a call without a result as running', () => {
    expect(viewToolResult('web_search', null)).toEqual({ kind: 'running' });
  });

  it('turns web_search results into sources', () => {
    const content = JSON.stringify({
      results: [
        { title: 'Vue', url: 'https://vuejs.org/guide', summary: 'The guide.' },
        { url: 'http://example.com/a', summary: 'No title.' },
        { title: 'Bad', url: 'javascript:alert(1)', summary: 'Hostile.' },
        { title: 'Data', url: 'data:text/html,<script>alert(1)</script>' },
        { title: 'Relative', url: '/etc/passwd' },
        { title: 'Not text', url: 42, summary: 7 },
      ],
    });
    expect(viewToolResult('web_search', { content, isError: false })).toEqual({
      kind: 'sources',
      sources: [
        { title: 'Vue', url: 'https://vuejs.org/guide', summary: 'The guide.' },
        { title: 'http://example.com/a', url: 'http://example.com/a', summary: 'No title.' },
        { title: 'Bad', url: '', summary: 'Hostile.' },
        { title: 'Data', url: '', summary: '' },
        { title: 'Relative', url: '', summary: '' },
        { title: 'Not text', url: '', summary: '' },
      ],
    });
  });

  it('turns empty web_search results into no sources', () => {
    expect(viewToolResult('web_search', { content: '{"results":[]}', isError: false })).toEqual({
      kind: 'sources',
      sources: [],
    });
  });

  it('shows an error result as failed with its code and message', () => {
    expect(viewToolResult('web_search', { content: searchError, isError: true })).toEqual({
      kind: 'failed',
      code: 'tools.timeout',
      message: 'The search took too long.',
    });
  });

  it('shows an error result as failed even when it is not flagged', () => {
    expect(viewToolResult('read_file', { content: searchError, isError: false })).toMatchObject({
      kind: 'failed',
      code: 'tools.timeout',
    });
  });

  it('shows a flagged result that is not an error object as failed with a generic code and its text', () => {
    expect(viewToolResult('run', { content: 'Segmentation fault', isError: true })).toEqual({
      kind: 'failed',
      code: 'tools.error',
      message: 'Segmentation fault',
    });
  });

  it('shows other results as text, JSON indented', () => {
    expect(viewToolResult('read_file', { content: 'plain text', isError: false })).toEqual({
      kind: 'text',
      text: 'plain text',
    });
    expect(viewToolResult('ls', { content: '{"files":["a"]}', isError: false })).toEqual({
      kind: 'text',
      text: '{\n  "files": [\n    "a"\n  ]\n}',
    });
  });

  it('shows a web_search result without a results list as text', () => {
    expect(viewToolResult('web_search', { content: 'Search is down', isError: false })).toEqual({
      kind: 'text',
      text: 'Search is down',
    });
    expect(viewToolResult('web_search', { content: '{"answer":"42"}', isError: false })).toEqual({
      kind: 'text',
      text: '{\n  "answer": "42"\n}',
    });
  });

  it('does not fail on web_search results holding null entries or a null body', () => {
    expect(viewToolResult('web_search', { content: '{"results":[null]}', isError: false })).toEqual({
      kind: 'text',
      text: '{\n  "results": [\n    null\n  ]\n}',
    });
    expect(viewToolResult('web_search', { content: 'null', isError: false })).toEqual({
      kind: 'text',
      text: 'null',
    });
  });
});

describe('safeHttpUrl and prettyJson', () => {
  it.each([
    ['https://a.example/x?y=1#z', 'https://a.example/x?y=1#z'],
    ['HTTP://A.EXAMPLE', 'http://a.example/'],
    ['javascript:alert(1)', ''],
    ['JavaScript:alert(1)', ''],
    [' javascript:alert(1)', ''],
    ['data:text/html,x', ''],
    ['ftp://a.example', ''],
    ['not a url', ''],
    ['', ''],
  ])('keeps only http(s) links: %j → %j', (input, expected) => {
    expect(safeHttpUrl(input)).toBe(expected);
  });

  it('gives an empty link for a value that is not text', () => {
    expect(safeHttpUrl(undefined)).toBe('');
    expect(safeHttpUrl({ href: 'https://a.example' })).toBe('');
  });

  it('indents JSON objects and arrays and leaves other text as it is', () => {
    expect(prettyJson('[1,2]')).toBe('[\n  1,\n  2\n]');
    expect(prettyJson('{broken')).toBe('{broken');
    expect(prettyJson('42')).toBe('42');
  });
});
