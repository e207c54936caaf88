import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /**
   * Self time per package (`@langchain/core`, `pg`…, the app's own code per module), node internals and
   * native code counted to the package that called them (a socket write to `pg`, a log line to `pino`).
   */
  byPackage: { name: string; ms: number; share: number }[];
  /** Time with the package anywhere on the stack (each sample counted once per package). */
  inclusive: { name: string; ms: number; share: number }[];
  /** Self time per function. */
  byFunction: { name: string; ms: number; share: number }[];
}

/** A time window in microseconds of the monotonic clock (`process.hrtime`), as V8 stamps samples. */
export interface Window {
  fromUs: number;
  toUs: number;
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

/** `node_modules/@scope/name/…` → `@scope/name`; `dist/src/modules/x/…` → `app:x`; `node:…` → `node`. */
export function packageOf(url: string, functionName: string): string {
  if (url === '') return IDLE.has(functionName) ? functionName : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node';
  const app = /\/dist\/src\/(?:modules\/)?([^/]+)/.exec(url);
  if (app !== null) return `app:${app[1].replace(/\.js$/, '')}`;
  return url;
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(dist + 1) : url;
}

function top(map: Map<string, number>, totalMs: number, limit: number) {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, ms]) => ({ name, ms, share: ms / totalMs }));
}

/** Self time of a V8 `.cpuprofile` (written by `node --cpu-prof`), idle time left out of the total. */
export function summarizeCpuProfile(path: string, window?: Window, limit = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (window !== undefined && (at < window.fromUs || at > window.toUs)) return;
    self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i] / 1000);
  });
  const pkgOf = (id: number) =>
    packageOf(nodes.get(id)!.callFrame.url, nodes.get(id)!.callFrame.functionName);
  const byPackage = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let totalMs = 0;
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    totalMs += ms;
    let owner: number | undefined = id;
    while (owner !== undefined && ['node', '(native)'].includes(pkgOf(owner))) owner = parent.get(owner);
    add(byPackage, owner === undefined ? pkgOf(id) : pkgOf(owner), ms);
    const seen = new Set<string>();
    for (let frame: number | undefined = id; frame !== undefined; frame = parent.get(frame))
      seen.add(pkgOf(frame));
    for (const pkg of seen) add(inclusive, pkg, ms);
    add(
      byFunction,
      `${functionName || '(anonymous)'} ${url === '' ? '' : `${shortUrl(url)}:${lineNumber + 1}`}`,
      ms,
    );
  }
  return {
    totalMs,
    byPackage: top(byPackage, totalMs, limit),
    inclusive: top(inclusive, totalMs, limit),
    byFunction: top(byFunction, totalMs, limit),
  };
}
