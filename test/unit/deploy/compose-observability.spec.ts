import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

/**
 * The compose file's optional `observability` profile and its configuration files fit together: the
 * files it mounts exist, Prometheus scrapes the port the app containers serve metrics on, and the
 * collector forwards to the Jaeger service of the same file. No Docker engine is needed to catch a
 * rename that breaks one of them.
 */
const root = path.resolve(__dirname, '../../..');
const readYaml = <T>(file: string): T => parse(readFileSync(path.join(root, file), 'utf8')) as T;

interface ComposeService {
  profiles?: string[];
  volumes?: string[];
  environment?: Record<string, string | Record<string, string>>;
}
interface Compose {
  'x-app': { environment: Record<string, string> };
  services: Record<string, ComposeService>;
}

const compose = readYaml<Compose>('docker-compose.yml');
const OPTIONAL = ['otel-collector', 'jaeger', 'prometheus'];

describe('docker-compose observability profile', () => {
  it('adds the collector, Jaeger and Prometheus only under the profile', () => {
    for (const name of OPTIONAL) expect(compose.services[name]?.profiles).toEqual(['observability']);
    for (const name of ['postgres', 'redis', 'api', 'worker'])
      expect(compose.services[name].profiles).toBeUndefined();
  });

  it('mounts configuration files that exist', () => {
    const mounted = OPTIONAL.flatMap((name) => compose.services[name].volumes ?? []).map(
      (volume) => volume.split(':')[0],
    );
    expect(mounted.length).toBeGreaterThanOrEqual(3);
    for (const file of mounted) expect(existsSync(path.join(root, file))).toBe(true);
  });

  it('scrapes the metrics port every app container listens on, for api and worker', () => {
    const port = Number(compose['x-app'].environment.METRICS_PORT);
    expect(port).toBeGreaterThan(0);
    const prometheus = readYaml<{
      scrape_configs: { dns_sd_configs: { names: string[]; port: number }[] }[];
      rule_files: string[];
    }>('deploy/observability/prometheus.yml');
    const targets = prometheus.scrape_configs.flatMap((job) => job.dns_sd_configs);
    expect(targets.map((t) => t.names[0]).sort()).toEqual(['api', 'worker']);
    for (const target of targets) expect(target.port).toBe(port);
    expect(prometheus.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
  });

  it('has the collector receive OTLP over HTTP on 4318 and export to the Jaeger service', () => {
    const collector = readYaml<{
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      exporters: Record<string, { endpoint: string }>;
      service: { pipelines: { traces: { exporters: string[] } } };
    }>('deploy/observability/otel-collector.yaml');
    expect(collector.receivers.otlp.protocols.http.endpoint).toMatch(/:4318$/);
    const exporters = collector.service.pipelines.traces.exporters.map((name) => collector.exporters[name]);
    expect(exporters.map((e) => e.endpoint)).toEqual(['jaeger:4317']);
    expect(compose.services.jaeger).toBeDefined();
  });
});
