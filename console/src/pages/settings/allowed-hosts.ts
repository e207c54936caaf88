/** The allowed hosts as the text box shows them: one a line. */
export function hostsText(hosts: readonly string[]): string {
  return hosts.join('\n');
}

/** The text box back as a list: lines, spaces or commas separate hosts; blanks and repeats dropped. */
export function parseHosts(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((host) => host.trim())
        .filter((host) => host !== ''),
    ),
  ];
}

export type HostProblem = 'url' | 'uppercase' | 'wildcard' | 'notHost';

/** The same shape the service checks: lowercase labels of letters, digits and inner hyphens, with a dot. */
const HOST = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * Why an entry does not look like an exact lowercase host name, or null. A hint only: the service decides,
 * and its refusal is what the page shows on save.
 */
export function hostProblem(host: string): HostProblem | null {
  if (HOST.test(host)) return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host) || host.includes('/') || host.includes(':')) return 'url';
  if (host.includes('*')) return 'wildcard';
  if (HOST.test(host.toLowerCase())) return 'uppercase';
  return 'notHost';
}

export function hostProblems(hosts: readonly string[]): { host: string; problem: HostProblem }[] {
  return hosts.flatMap((host) => {
    const problem = hostProblem(host);
    return problem === null ? [] : [{ host, problem }];
  });
}

export function sameHosts(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((host, index) => host === b[index]);
}
