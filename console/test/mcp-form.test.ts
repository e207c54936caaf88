import { describe, expect, it } from 'vitest';
import type { McpServer } from '../src/api/types';
import {
  blankRow,
  createBody,
  droppedHeaders,
  emptyForm,
  formOf,
  formProblems,
  headerRowsOf,
  isKept,
  movesElsewhere,
  patchBody,
  tagsOf,
  type McpForm,
} from '../src/pages/mcp/mcp-form';
import { hintBadges, isCautionHint, toolTitle } from '../src/pages/mcp/tool-annotations';

const server: McpServer = {
  slug: 'remote',
  name: 'Remote',
  description: 'A remote server',
  icon: null,
  tags: ['code', 'docs'],
  enabled: true,
  transport: 'streamable_http',
  url: 'https://mcp.example.com/mcp',
  headers: { Authorization: 'Bear…3210', 'X-Team': 'te…-1' },
  timeout_s: 30,
  sse_read_timeout_s: 300,
  disabled_tools: [],
  source: 'custom',
  created_by: null,
  updated_by: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

function edit(change: (form: McpForm) => void): McpForm {
  const form = formOf(server);
  change(form);
  return form;
}

describe('MCP header rows', () => {
  it('shows stored headers redacted, each remembering how it was shown', () => {
    const rows = headerRowsOf(server.headers);
    expect(rows.map(({ name, value, shown }) => ({ name, value, shown }))).toEqual([
      { name: 'Authorization', value: 'Bear…3210', shown: { name: 'Authorization', value: 'Bear…3210' } },
      { name: 'X-Team', value: 'te…-1', shown: { name: 'X-Team', value: 'te…-1' } },
    ]);
    expect(new Set(rows.map((row) => row.id)).size).toBe(2);
    expect(rows.every(isKept)).toBe(true);
  });

  it('keeps a row left as shown (its name may change case), not a retyped or renamed one', () => {
    const [row] = headerRowsOf({ Authorization: 'Bear…3210' });
    expect(isKept({ ...row, name: 'authorization ' })).toBe(true);
    expect(isKept({ ...row, value: 'Bearer new' })).toBe(false);
    expect(isKept({ ...row, name: 'X-Auth' })).toBe(false);
    expect(isKept({ ...blankRow(), name: 'Authorization', value: 'Bear…3210' })).toBe(false);
  });

  it('reads tags from comma-separated text, each once', () => {
    expect(tagsOf(' code, docs,,code , ')).toEqual(['code', 'docs']);
    expect(tagsOf('')).toEqual([]);
  });
});

describe('adding an MCP server', () => {
  it('sends the fields given, leaving out empty optional ones', () => {
    const form: McpForm = {
      ...emptyForm(),
      slug: ' local ',
      name: ' Local ',
      url: ' http://127.0.0.1:9000/mcp ',
      timeoutS: '',
      headers: [{ ...blankRow(), name: ' Authorization ', value: 'Bearer s3cret' }, blankRow()],
    };
    expect(createBody(form)).toEqual({
      slug: 'local',
      name: 'Local',
      transport: 'streamable_http',
      url: 'http://127.0.0.1:9000/mcp',
      headers: { Authorization: 'Bearer s3cret' },
      sse_read_timeout_s: 300,
    });
    expect(createBody({ ...form, tags: 'a, b', description: 'About', timeoutS: '2.5' })).toMatchObject({
      tags: ['a', 'b'],
      description: 'About',
      timeout_s: 2.5,
    });
  });

  it('names what is missing or wrong before anything is sent', () => {
    expect(formProblems(emptyForm(), false)).toEqual(['slugMissing', 'nameMissing', 'urlMissing']);
    const form: McpForm = {
      ...emptyForm(),
      slug: 's',
      name: 'n',
      url: 'https://x.example/mcp',
      timeoutS: 'soon',
      sseReadTimeoutS: '0',
      headers: [
        { ...blankRow(), name: '', value: 'orphan' },
        { ...blankRow(), name: 'X-A', value: '1' },
        { ...blankRow(), name: 'x-a', value: '2' },
      ],
    };
    expect(formProblems(form, false)).toEqual([
      'timeoutInvalid',
      'sseReadTimeoutInvalid',
      'headerNameMissing',
      'headerNameRepeated',
    ]);
    // Empty timeouts take the service's defaults when adding; an edit must keep a number.
    expect(formProblems({ ...form, timeoutS: '', sseReadTimeoutS: '', headers: [] }, false)).toEqual([]);
    expect(formProblems({ ...form, timeoutS: '', sseReadTimeoutS: '5', headers: [] }, true)).toEqual([
      'timeoutInvalid',
    ]);
  });
});

describe('editing an MCP server (the PATCH body)', () => {
  it('sends nothing when nothing changed', () => {
    expect(patchBody(formOf(server), server)).toEqual({});
  });

  it('sends only the changed fields; unchanged headers are not sent at all', () => {
    const form = edit((f) => {
      f.name = 'Renamed';
      f.tags = 'code';
      f.timeoutS = '12';
    });
    expect(patchBody(form, server)).toEqual({ name: 'Renamed', tags: ['code'], timeout_s: 12 });
  });

  it('sends the whole header map when one changes, the unchanged ones in their redacted form', () => {
    const form = edit((f) => {
      f.headers[1].value = 'team-beta-2';
      f.headers.push({ ...blankRow(), name: 'X-New', value: 'fresh' });
    });
    expect(patchBody(form, server)).toEqual({
      headers: { Authorization: 'Bear…3210', 'X-Team': 'team-beta-2', 'X-New': 'fresh' },
    });
  });

  it('sends the remaining headers when one is removed, and an empty map when all are', () => {
    expect(
      patchBody(
        edit((f) => f.headers.splice(1, 1)),
        server,
      ),
    ).toEqual({
      headers: { Authorization: 'Bear…3210' },
    });
    expect(
      patchBody(
        edit((f) => (f.headers = [])),
        server,
      ),
    ).toEqual({ headers: {} });
  });

  it('refuses a renamed header still holding the redacted value (it would store the redacted text)', () => {
    const form = edit((f) => (f.headers[0].name = 'X-Auth'));
    expect(formProblems(form, true)).toEqual(['headerRetype']);
    expect(
      formProblems(
        edit((f) => (f.headers[0].name = 'AUTHORIZATION')),
        true,
      ),
    ).toEqual([]);
  });

  it('on a path change in the same origin keeps the headers (none are sent)', () => {
    const form = edit((f) => (f.url = 'https://mcp.example.com/v2/mcp'));
    expect(movesElsewhere(form, server)).toBe(false);
    expect(droppedHeaders(form, server)).toEqual([]);
    expect(patchBody(form, server)).toEqual({ url: 'https://mcp.example.com/v2/mcp' });
  });

  it('on another origin or transport sends only retyped values and names the headers dropped', () => {
    const moved = edit((f) => (f.url = 'https://other.example.com/mcp'));
    expect(movesElsewhere(moved, server)).toBe(true);
    expect(droppedHeaders(moved, server)).toEqual(['Authorization', 'X-Team']);
    expect(patchBody(moved, server)).toEqual({ url: 'https://other.example.com/mcp', headers: {} });

    const retyped = edit((f) => {
      f.transport = 'sse';
      f.headers[0].value = 'Bearer again';
    });
    expect(movesElsewhere(retyped, server)).toBe(true);
    expect(droppedHeaders(retyped, server)).toEqual(['X-Team']);
    expect(patchBody(retyped, server)).toEqual({
      transport: 'sse',
      headers: { Authorization: 'Bearer again' },
    });

    // A port is part of the origin too.
    expect(
      movesElsewhere(
        edit((f) => (f.url = 'https://mcp.example.com:8443/mcp')),
        server,
      ),
    ).toBe(true);
  });

  it('sends no headers when a server without any moves elsewhere', () => {
    const bare = { ...server, headers: {} };
    const form = formOf(bare);
    form.url = 'https://other.example.com/mcp';
    expect(patchBody(form, bare)).toEqual({ url: 'https://other.example.com/mcp' });
  });
});

describe('MCP tool annotations', () => {
  it('gives one badge per hint the server gave, in a fixed order', () => {
    expect(hintBadges(undefined)).toEqual([]);
    expect(hintBadges({})).toEqual([]);
    expect(
      hintBadges({ openWorldHint: false, readOnlyHint: true, idempotentHint: true, destructiveHint: false }),
    ).toEqual(['readOnly', 'notDestructive', 'idempotent', 'closedWorld']);
    expect(hintBadges({ destructiveHint: true, openWorldHint: true })).toEqual(['destructive', 'openWorld']);
    expect(hintBadges({ readOnlyHint: 'yes' as unknown as boolean })).toEqual([]);
  });

  it('marks the hints that call for caution, and shows a title only when it says more than the name', () => {
    expect(['destructive', 'openWorld'].every((hint) => isCautionHint(hint as 'destructive'))).toBe(true);
    expect(isCautionHint('readOnly')).toBe(false);
    expect(toolTitle('search', { title: 'Search the web' })).toBe('Search the web');
    expect(toolTitle('search', { title: 'search' })).toBeNull();
    expect(toolTitle('search', undefined)).toBeNull();
  });
});
