/** Vendor-shaped answers used across the web search tests. */
export const TAVILY_RESULTS = [
  {
    title: 'Release notes 4.0',
    url: 'https://example.com/notes',
    content: 'Version 4.0 adds streaming. [...] Upgrade guide included.',
    score: 0.93,
    raw_content: '# Release notes\n\nVersion 4.0 adds streaming.',
    favicon: 'https://example.com/favicon.ico',
  },
  {
    title: 'News: 4.0 ships',
    url: 'https://news.example.org/4-0',
    content: 'The 4.0 release shipped on Monday.',
    score: 0.41,
    published_date: 'Mon, 01 Jun 2026 08:00:00 GMT',
  },
];

export const DEEPSEEK_RESULTS = [
  {
    rerank_score: 2.4,
    title: 'DeepSeek V4 model released',
    url: 'https://example.com/deepseek-v4',
    snippet: 'DeepSeek V4 is now available.',
    summary: 'DeepSeek has released the V4 model with improved tool calling.',
    content: '# DeepSeek V4\n\nFull text.',
    site_name: 'Example News',
    site_icon: 'https://example.com/favicon.ico',
    date: '2026-06-01T00:00:00+00:00',
    authority: 3,
  },
  {
    rerank_score: 0.7,
    title: 'Forum thread',
    url: 'https://forum.example.net/t/1',
    snippet: 'Someone asked about V4.',
    summary: '',
    content: '',
    site_name: 'Forum',
    site_icon: '',
    date: '',
    authority: 1,
  },
];

export const DOUBAO_RESULTS = [
  {
    Id: 'r1',
    SortId: 1,
    Title: '国务院发布新规',
    SiteName: '中国政府网',
    Url: 'https://www.gov.cn/zhengce/1.htm',
    Snippet: '新规自下月起施行。',
    Summary: '国务院发布新规，自下月起施行，涉及……',
    Content: '全文……',
    PublishTime: '2026-06-01T10:00:00+08:00',
    LogoUrl: '',
    RankScore: 0.87,
    AuthInfoDes: '非常权威',
    AuthInfoLevel: 1,
  },
  {
    Id: 'r2',
    SortId: 2,
    Title: '无链接结果',
    SiteName: '某站',
    Url: '',
    Snippet: '没有 URL 的结果会被丢弃。',
    Summary: '',
    Content: '',
    PublishTime: '',
    RankScore: 0.2,
  },
];
