import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  AgentTool,
  type ToolAvailability,
  type ToolInvocation,
  type ToolOutput,
  ToolRegistry,
} from '../../tools/index.js';
import { WebSearchConfig } from '../config/web-search-config.js';
import type { Resolved } from '../config/effective-config.js';
import { WebSearchErrors } from '../web-search.errors.js';
import { WebSearchService } from '../web-search.service.js';
import type { SearchQuery, TimeRange } from '../web-search.types.js';
import { checkFetchUrl } from './fetch-url-policy.js';
import {
  dateRangeOf,
  SEARCH_COUNT_DEFAULT,
  WEB_FETCH_DESCRIPTION,
  WEB_FETCH_TOOL_NAME,
  WEB_SEARCH_DESCRIPTION,
  WEB_SEARCH_TOOL_NAME,
  type WebFetchArgs,
  webFetchSchema,
  type WebSearchArgs,
  webSearchSchema,
} from './web-tool-schemas.js';

function isRealDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date);
}

function timeRangeOf(value: string | undefined): TimeRange | null {
  if (value === undefined) return null;
  const dates = dateRangeOf(value);
  if (dates === null) return { kind: 'named', name: value as Extract<TimeRange, { kind: 'named' }>['name'] };
  if (!isRealDate(dates.from) || !isRealDate(dates.to)) {
    throw WebSearchErrors.invalidArgument('web_search', 'time_range', 'not a real calendar date');
  }
  if (dates.from > dates.to) {
    throw WebSearchErrors.invalidArgument('web_search', 'time_range', 'the start date is after the end date');
  }
  return { kind: 'dates', ...dates };
}

function availabilityOf(resolved: Resolved<'tavily' | 'deepseek' | 'doubao'>): ToolAvailability {
  return resolved.available
    ? { available: true, reason: null }
    : { available: false, reason: resolved.reason };
}

/** The tool arguments as a vendor-neutral query (zod has checked shapes and bounds already). */
export function searchQueryOf(args: WebSearchArgs): SearchQuery {
  return {
    query: args.query.trim(),
    count: args.count ?? SEARCH_COUNT_DEFAULT,
    timeRange: timeRangeOf(args.time_range),
    sites: args.sites ?? [],
    blockHosts: args.block_hosts ?? [],
    includeContent: args.include_content ?? false,
    contentFormat: args.content_format ?? 'text',
  };
}

/** `web_search` and `web_fetch`: registered always; bound to a run only when their provider is configured. */
@Injectable()
export class WebTools implements OnModuleInit {
  constructor(
    private readonly web: WebSearchService,
    private readonly config: WebSearchConfig,
    private readonly registry: ToolRegistry,
  ) {}

  /** Asked at every graph build and catalog read: the effective configuration, read anew. */
  onModuleInit(): void {
    this.registry.setAvailability(WEB_SEARCH_TOOL_NAME, async () =>
      availabilityOf((await this.config.current()).search),
    );
    this.registry.setAvailability(WEB_FETCH_TOOL_NAME, async () =>
      availabilityOf((await this.config.current()).fetch),
    );
  }

  @AgentTool({
    name: WEB_SEARCH_TOOL_NAME,
    category: 'builtin',
    tags: ['网络', '搜索'],
    displayName: '网页搜索',
    description: WEB_SEARCH_DESCRIPTION,
    schema: webSearchSchema,
    configGuide:
      '超级管理员在“设置 → 网络搜索”选择搜索服务并填写其 API Key（或设置 TAVILY_API_KEY、DEEPSEEK_API_KEY、DOUBAO_SEARCH_API_KEY）。',
    timeoutMs: 60_000,
  })
  async search(args: WebSearchArgs, invocation: ToolInvocation): Promise<ToolOutput> {
    const outcome = await this.web.search(searchQueryOf(args), invocation.signal);
    return { ...outcome };
  }

  @AgentTool({
    name: WEB_FETCH_TOOL_NAME,
    category: 'builtin',
    tags: ['网络', '抓取'],
    displayName: '网页抓取',
    description: WEB_FETCH_DESCRIPTION,
    schema: webFetchSchema,
    configGuide:
      '超级管理员在“设置 → 网络搜索”选择网页抓取服务（Tavily Extract 或 DeepSeek Fetch）并填写其 API Key。',
    timeoutMs: 60_000,
  })
  async fetch(args: WebFetchArgs, invocation: ToolInvocation): Promise<ToolOutput> {
    const url = checkFetchUrl(args.url);
    const page = await this.web.fetch(url, invocation.signal);
    return { ...page, content_chars: page.content.length };
  }
}
