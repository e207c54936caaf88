import type { McpServer, McpServerChanges, McpTransport, NewMcpServer } from '../../api/types';

/**
 * One header of the form. `shown` is the header as the service showed it when editing (its value
 * redacted): a row still holding that value is sent back redacted, and the service keeps the stored one.
 */
export interface HeaderRow {
  id: number;
  name: string;
  value: string;
  shown?: { name: string; value: string };
}

/** The add and edit form, as typed (numbers and tags are text until sent). */
export interface McpForm {
  slug: string;
  name: string;
  transport: McpTransport;
  url: string;
  description: string;
  headers: HeaderRow[];
  timeoutS: string;
  sseReadTimeoutS: string;
  /** Comma-separated. */
  tags: string;
}

export type FormProblem =
  | 'slugMissing'
  | 'nameMissing'
  | 'urlMissing'
  | 'timeoutInvalid'
  | 'sseReadTimeoutInvalid'
  | 'headerNameMissing'
  | 'headerNameRepeated'
  | 'headerRetype';

let rowIds = 0;

export function blankRow(): HeaderRow {
  return { id: ++rowIds, name: '', value: '' };
}

/** The rows of a stored header map (values redacted), each remembering how it was shown. */
export function headerRowsOf(headers: Record<string, string>): HeaderRow[] {
  return Object.entries(headers).map(([name, value]) => ({
    id: ++rowIds,
    name,
    value,
    shown: { name, value },
  }));
}

export function emptyForm(): McpForm {
  return {
    slug: '',
    name: '',
    transport: 'streamable_http',
    url: '',
    description: '',
    headers: [],
    timeoutS: '30',
    sseReadTimeoutS: '300',
    tags: '',
  };
}

export function formOf(server: McpServer): McpForm {
  return {
    slug: server.slug,
    name: server.name,
    transport: server.transport === 'sse' ? 'sse' : 'streamable_http',
    url: server.url,
    description: server.description,
    headers: headerRowsOf(server.headers),
    timeoutS: String(server.timeout_s),
    sseReadTimeoutS: String(server.sse_read_timeout_s),
    tags: server.tags.join(', '),
  };
}

/** A row left as the service showed it (the name may change case): the stored value is kept. */
export function isKept(row: HeaderRow): boolean {
  return (
    row.shown !== undefined &&
    row.name.trim().toLowerCase() === row.shown.name.toLowerCase() &&
    row.value === row.shown.value
  );
}

export function tagsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ];
}

function secondsOf(text: string): number | null {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed !== '' && Number.isFinite(value) && value > 0 ? value : null;
}

function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}

/**
 * Whether the edit points the server elsewhere (another origin of the URL or another transport): the
 * service then drops the stored headers, keeping only values typed again in clear.
 */
export function movesElsewhere(form: McpForm, server: McpServer): boolean {
  if (form.transport !== server.transport) return true;
  return form.url.trim() !== server.url && originOf(form.url) !== originOf(server.url);
}

/** Stored headers the edit would drop (it moves elsewhere and their values were not typed again). */
export function droppedHeaders(form: McpForm, server: McpServer): string[] {
  if (!movesElsewhere(form, server)) return [];
  const retyped = new Set(
    form.headers.filter((row) => row.name.trim() && !isKept(row)).map((row) => row.name.trim().toLowerCase()),
  );
  return Object.keys(server.headers).filter((name) => !retyped.has(name.toLowerCase()));
}

/** What stops the form from being sent, each once, in the order of the form. */
export function formProblems(form: McpForm, editing: boolean): FormProblem[] {
  const problems: FormProblem[] = [];
  if (!editing && !form.slug.trim()) problems.push('slugMissing');
  if (!form.name.trim()) problems.push('nameMissing');
  if (!form.url.trim()) problems.push('urlMissing');
  if ((editing || form.timeoutS.trim()) && secondsOf(form.timeoutS) === null) problems.push('timeoutInvalid');
  if ((editing || form.sseReadTimeoutS.trim()) && secondsOf(form.sseReadTimeoutS) === null)
    problems.push('sseReadTimeoutInvalid');
  const rows = form.headers.filter((row) => row.name.trim() || row.value);
  if (rows.some((row) => !row.name.trim())) problems.push('headerNameMissing');
  const names = rows.map((row) => row.name.trim().toLowerCase()).filter(Boolean);
  if (new Set(names).size !== names.length) problems.push('headerNameRepeated');
  // A renamed header still holding the redacted value would store the redacted text itself.
  if (rows.some((row) => row.shown && row.value === row.shown.value && !isKept(row)))
    problems.push('headerRetype');
  return problems;
}

function headerMap(rows: HeaderRow[]): Record<string, string> {
  return Object.fromEntries(rows.map((row) => [row.name.trim(), row.value]));
}

function namedRows(form: McpForm): HeaderRow[] {
  return form.headers.filter((row) => row.name.trim());
}

export function createBody(form: McpForm): NewMcpServer {
  const rows = namedRows(form);
  const tags = tagsOf(form.tags);
  const timeout = secondsOf(form.timeoutS);
  const sseReadTimeout = secondsOf(form.sseReadTimeoutS);
  return {
    slug: form.slug.trim(),
    name: form.name.trim(),
    transport: form.transport,
    url: form.url.trim(),
    ...(form.description.trim() ? { description: form.description } : {}),
    ...(rows.length ? { headers: headerMap(rows) } : {}),
    ...(timeout === null ? {} : { timeout_s: timeout }),
    ...(sseReadTimeout === null ? {} : { sse_read_timeout_s: sseReadTimeout }),
    ...(tags.length ? { tags } : {}),
  };
}

/**
 * The headers a PATCH sends, or undefined to leave them as stored. Unchanged rows go back in their
 * redacted form (the service keeps their values); when the edit moves the server elsewhere only the
 * values typed in clear are sent, since the service drops every stored one anyway.
 */
function headerChanges(form: McpForm, server: McpServer): Record<string, string> | undefined {
  const rows = namedRows(form);
  const storedCount = Object.keys(server.headers).length;
  if (movesElsewhere(form, server)) {
    const clear = rows.filter((row) => !isKept(row));
    return storedCount === 0 && clear.length === 0 ? undefined : headerMap(clear);
  }
  const unchanged =
    rows.length === storedCount && rows.every((row) => isKept(row) && row.name.trim() === row.shown?.name);
  return unchanged ? undefined : headerMap(rows);
}

/** Only the fields the form changed: an empty object means there is nothing to save. */
export function patchBody(form: McpForm, server: McpServer): McpServerChanges {
  const changes: McpServerChanges = {};
  const name = form.name.trim();
  const url = form.url.trim();
  if (name !== server.name) changes.name = name;
  if (form.transport !== server.transport) changes.transport = form.transport;
  if (url !== server.url) changes.url = url;
  if (form.description !== server.description) changes.description = form.description;
  const timeout = secondsOf(form.timeoutS);
  if (timeout !== null && timeout !== server.timeout_s) changes.timeout_s = timeout;
  const sseReadTimeout = secondsOf(form.sseReadTimeoutS);
  if (sseReadTimeout !== null && sseReadTimeout !== server.sse_read_timeout_s)
    changes.sse_read_timeout_s = sseReadTimeout;
  const tags = tagsOf(form.tags);
  if (tags.join('\n') !== server.tags.join('\n')) changes.tags = tags;
  const headers = headerChanges(form, server);
  if (headers !== undefined) changes.headers = headers;
  return changes;
}
