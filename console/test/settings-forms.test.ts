import { describe, expect, it } from 'vitest';
import type { WebSearchSettings } from '../src/api/types';
import {
  hostProblem,
  hostProblems,
  hostsText,
  parseHosts,
  sameHosts,
} from '../src/pages/settings/allowed-hosts';
import {
  testBody,
  testVendors,
  webSearchChanges,
  webSearchForm,
  type WebSearchForm,
} from '../src/pages/settings/web-search-form';

const saved: WebSearchSettings = {
  search_provider: 'auto',
  fetch_provider: 'auto',
  providers: {
    tavily: { has_key: true, key_preview: 'tvly…2222', source: 'settings' },
    deepseek: { has_key: true, key_preview: 'sk-e…1111', source: 'env' },
    doubao: { has_key: false, key_preview: null, source: 'none' },
  },
};

function edited(change: (form: WebSearchForm) => void): WebSearchForm {
  const form = webSearchForm(saved);
  change(form);
  return form;
}

describe('the web search form', () => {
  it('starts from the saved providers with no key typed and nothing to clear', () => {
    const form = webSearchForm(saved);
    expect(form.searchProvider).toBe('auto');
    expect(form.fetchProvider).toBe('auto');
    expect(Object.values(form.keys)).toEqual([
      { value: '', clear: false },
      { value: '', clear: false },
      { value: '', clear: false },
    ]);
  });

  it('sends nothing when nothing changed', () => {
    expect(webSearchChanges(saved, webSearchForm(saved))).toBeNull();
    // Choosing the saved provider again, or typing only spaces, is no change either.
    expect(
      webSearchChanges(
        saved,
        edited((f) => (f.keys.doubao.value = '   ')),
      ),
    ).toBeNull();
  });

  it('sends only the providers that changed', () => {
    expect(
      webSearchChanges(
        saved,
        edited((f) => (f.searchProvider = 'tavily')),
      ),
    ).toEqual({
      search_provider: 'tavily',
    });
    expect(
      webSearchChanges(
        saved,
        edited((f) => (f.fetchProvider = 'none')),
      ),
    ).toEqual({
      fetch_provider: 'none',
    });
  });

  it('sends a typed key, trimmed, for its vendor only', () => {
    expect(
      webSearchChanges(
        saved,
        edited((f) => (f.keys.deepseek.value = ' sk-new-key \n')),
      ),
    ).toEqual({
      api_keys: { deepseek: 'sk-new-key' },
    });
  });

  it('clears a saved key with null, but never one that is not saved in the settings', () => {
    expect(
      webSearchChanges(
        saved,
        edited((f) => (f.keys.tavily.clear = true)),
      ),
    ).toEqual({
      api_keys: { tavily: null },
    });
    expect(
      webSearchChanges(
        saved,
        edited((f) => (f.keys.deepseek.clear = true)),
      ),
    ).toBeNull();
  });

  it('prefers a typed key over "clear", and puts everything in one body', () => {
    const form = edited((f) => {
      f.searchProvider = 'doubao';
      f.fetchProvider = 'tavily';
      f.keys.tavily = { value: 'tvly-typed', clear: true };
      f.keys.doubao.value = 'db-key';
    });
    expect(webSearchChanges(saved, form)).toEqual({
      search_provider: 'doubao',
      fetch_provider: 'tavily',
      api_keys: { tavily: 'tvly-typed', doubao: 'db-key' },
    });
  });
});

describe('the vendor test', () => {
  const test = { kind: 'search' as const, provider: 'tavily' as const, query: '', url: '' };

  it('offers every vendor for a search and only the fetching ones for a fetch', () => {
    expect(testVendors('search')).toEqual(['tavily', 'deepseek', 'doubao']);
    expect(testVendors('fetch')).toEqual(['tavily', 'deepseek']);
  });

  it('uses the key typed for that vendor, or none (the current key) when nothing is typed', () => {
    const form = edited((f) => (f.keys.tavily.value = ' tvly-draft '));
    expect(testBody(test, form)).toEqual({ kind: 'search', provider: 'tavily', api_key: 'tvly-draft' });
    expect(testBody({ ...test, provider: 'doubao' }, form)).toEqual({ kind: 'search', provider: 'doubao' });
  });

  it('sends the query for a search and the URL for a fetch, each only when given', () => {
    const form = webSearchForm(saved);
    expect(testBody({ ...test, query: ' release 4.0 ', url: 'https://a.example/' }, form)).toEqual({
      kind: 'search',
      provider: 'tavily',
      query: 'release 4.0',
    });
    expect(testBody({ ...test, kind: 'fetch', query: 'ignored', url: 'https://a.example/' }, form)).toEqual({
      kind: 'fetch',
      provider: 'tavily',
      url: 'https://a.example/',
    });
    expect(testBody({ ...test, kind: 'fetch', url: '  ' }, form)).toEqual({
      kind: 'fetch',
      provider: 'tavily',
    });
  });
});

describe('the allowed hosts', () => {
  it('shows one host a line and reads lines, spaces or commas back, without blanks or repeats', () => {
    expect(hostsText(['github.com', 'modelscope.cn'])).toBe('github.com\nmodelscope.cn');
    expect(parseHosts(' github.com,\n\nmodelscope.cn  github.com \n')).toEqual([
      'github.com',
      'modelscope.cn',
    ]);
  });

  it('reads an empty box as the empty list (remote installs off)', () => {
    expect(parseHosts('')).toEqual([]);
    expect(parseHosts(' \n , ')).toEqual([]);
  });

  it('accepts exact lowercase host names', () => {
    for (const host of ['github.com', 'git-hub.example.co.uk', 'a1.b2.cn', 'xn--fiqs8s.cn'])
      expect(hostProblem(host)).toBeNull();
  });

  it('says why an entry does not look like one', () => {
    expect(hostProblem('https://github.com')).toBe('url');
    expect(hostProblem('github.com/org')).toBe('url');
    expect(hostProblem('github.com:443')).toBe('url');
    expect(hostProblem('GitHub.com')).toBe('uppercase');
    expect(hostProblem('*.github.com')).toBe('wildcard');
    expect(hostProblem('localhost')).toBe('notHost');
    expect(hostProblem('-bad-.com')).toBe('notHost');
    expect(hostProblem('under_score.com')).toBe('notHost');
    expect(hostProblems(['github.com', 'GitHub.io'])).toEqual([{ host: 'GitHub.io', problem: 'uppercase' }]);
  });

  it('tells whether the list changed, order included', () => {
    expect(sameHosts(['a.com', 'b.com'], ['a.com', 'b.com'])).toBe(true);
    expect(sameHosts(['a.com', 'b.com'], ['b.com', 'a.com'])).toBe(false);
    expect(sameHosts([], ['a.com'])).toBe(false);
  });
});
