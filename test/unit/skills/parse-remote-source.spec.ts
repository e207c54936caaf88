import { parseRemoteSource } from '../../../src/modules/skills/remote/parse-remote-source';
import {
  RemoteSourceError,
  type RemoteSourceRefusalReason,
} from '../../../src/modules/skills/remote/remote-source.errors';

const reasonOf = (run: () => unknown): string => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return error instanceof RemoteSourceError ? error.reason : `other: ${String(error)}`;
  }
};

describe('parseRemoteSource', () => {
  it('turns owner/repo into https://github.com/owner/repo and keeps allowed https URLs', () => {
    expect(parseRemoteSource('anthropics/skills').href).toBe('https://github.com/anthropics/skills');
    expect(parseRemoteSource(' my-org/my.repo_1 ').href).toBe('https://github.com/my-org/my.repo_1');
    expect(parseRemoteSource('https://github.com/anthropics/skills.git').href).toBe(
      'https://github.com/anthropics/skills.git',
    );
    // the default port written out is the default port
    expect(parseRemoteSource('https://GitHub.com:443/a/b').href).toBe('https://github.com/a/b');
    expect(parseRemoteSource('https://modelscope.cn/skills/x.zip').hostname).toBe('modelscope.cn');
  });

  it.each<[string, string, RemoteSourceRefusalReason]>([
    ['plain http', 'http://github.com/a/b', 'not_https'],
    ['another scheme', 'ftp://github.com/a/b', 'not_https'],
    ['credentials', 'https://user:ghp_x@github.com/a/b', 'credentials'],
    ['a user name alone', 'https://token@github.com/a/b', 'credentials'],
    ['a query', 'https://github.com/a/b?ref=main', 'query'],
    ['an empty query', 'https://github.com/a/b?', 'query'],
    ['a fragment', 'https://github.com/a/b#readme', 'query'],
    ['another port', 'https://github.com:8443/a/b', 'port'],
    ['a host not on the list', 'https://gitlab.com/a/b', 'host_not_allowed'],
    ['a subdomain of an allowed host', 'https://api.github.com/a/b', 'host_not_allowed'],
    ['a look-alike suffix', 'https://github.com.evil.example/a/b', 'host_not_allowed'],
    ['a trailing dot', 'https://github.com./a/b', 'host_not_allowed'],
    ['an IP literal', 'https://140.82.112.3/a/b', 'host_not_allowed'],
    ['not a URL nor owner/repo', 'just words', 'invalid_source'],
    ['a shorthand with ..', 'a/..', 'invalid_source'],
    ['an empty string', '   ', 'invalid_source'],
  ])('refuses %s', (_label, source, reason) => {
    expect(reasonOf(() => parseRemoteSource(source))).toBe(reason);
  });

  it('matches hosts exactly against the list it is given; an empty list disables remote sources', () => {
    expect(parseRemoteSource('https://git.example.org/a/b', ['git.example.org']).hostname).toBe(
      'git.example.org',
    );
    expect(reasonOf(() => parseRemoteSource('a/b', ['git.example.org']))).toBe('host_not_allowed');
    expect(reasonOf(() => parseRemoteSource('https://GIT.example.org/a', ['Git.Example.org']))).toBe(
      'accepted',
    );
    expect(reasonOf(() => parseRemoteSource('a/b', []))).toBe('remote_disabled');
    expect(reasonOf(() => parseRemoteSource('https://github.com/a/b', []))).toBe('remote_disabled');
  });

  it('names the refusal without echoing credentials', () => {
    try {
      parseRemoteSource('https://user:ghp_secret@github.com/a/b');
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(RemoteSourceError);
      expect(
        JSON.stringify({ ...(error as RemoteSourceError), message: (error as Error).message }),
      ).not.toContain('ghp_secret');
    }
  });
});
