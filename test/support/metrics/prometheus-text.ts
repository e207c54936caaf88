/** One sample of a scrape: its series name, its labels, its value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a Prometheus text exposition (comments skipped). */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (match === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL))
      labels[key] = value.replace(/\\"/g, '"').replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** A parsed scrape, read by series and labels. */
export class Scrape {
  constructor(readonly samples: Sample[]) {}

  static of(text: string): Scrape {
    return new Scrape(parsePrometheusText(text));
  }

  /** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.matching(name, labels).reduce((sum, sample) => sum + sample.value, 0);
  }

  matching(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  }

  /** The values label `label` takes among the samples of `name`. */
  labelValues(name: string, label: string): Set<string> {
    return new Set(this.matching(name).map((sample) => sample.labels[label]));
  }

  /** `value` now minus `value` in `before`. */
  delta(before: Scrape, name: string, labels: Record<string, string> = {}): number {
    return this.value(name, labels) - before.value(name, labels);
  }
}
