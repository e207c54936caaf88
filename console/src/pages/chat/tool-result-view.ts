import type { ToolResult } from './timeline';
import { asText, toolErrorOf } from './timeline';

export interface SearchSource {
  title: string;
  url: string;
  summary: string;
}

/** How a tool call's result reads to a person: still running, failed (with its code), sources, or text. */
export type ToolResultView =
  | { kind: 'running' }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'sources'; sources: SearchSource[] }
  | { kind: 'text'; text: string };

export function viewToolResult(name: string, result: ToolResult | null): ToolResultView {
  if (!result) return { kind: 'running' };
  const error = toolErrorOf(result.content);
  if (result.isError || error) {
    return { kind: 'failed', code: error?.code ?? 'tools.error', message: error?.message ?? result.content };
  }
  if (name === 'web_search') {
    const sources = searchSources(result.content);
    if (sources) return { kind: 'sources', sources };
  }
  return { kind: 'text', text: prettyJson(result.content) };
}

function searchSources(content: string): SearchSource[] | null {
  try {
    const parsed = JSON.parse(content) as { results?: unknown };
    if (!Array.isArray(parsed.results)) return null;
    return parsed.results.map((hit: Record<string, unknown>) => ({
      title: asText(hit.title) || asText(hit.url),
      url: safeHttpUrl(hit.url),
      summary: asText(hit.summary),
    }));
  } catch {
    return null;
  }
}

/** Only http(s) links become clickable: a `javascript:` URL from a search result is shown as text. */
export function safeHttpUrl(value: unknown): string {
  if (typeof value !== 'string') return '';
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}

export function prettyJson(text: string): string {
  if (!text.startsWith('{') && !text.startsWith('[')) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
