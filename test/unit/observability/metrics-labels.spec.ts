import { Registry } from 'prom-client';
import { BoundedLabel, OTHER_LABEL } from '../../../src/observability/metrics/bounded-label';
import { MetricsExposition } from '../../../src/observability/metrics/metrics-exposition';
import { Secret } from '../../../src/config/secret';
import type { AppConfig } from '../../../src/config/app-config';
import type { MetricsRegistry } from '../../../src/observability/metrics/metrics-registry';

describe('BoundedLabel', () => {
  it('keeps the first `cap` distinct values and maps every later one to (other)', () => {
    const label = new BoundedLabel(2);
    expect(['a', 'b', 'a', 'c', 'b', 'd'].map((v) => label.of(v))).toEqual([
      'a',
      'b',
      'a',
      OTHER_LABEL,
      'b',
      OTHER_LABEL,
    ]);
  });
});

describe('MetricsExposition.refusal', () => {
  const token = 'a-metrics-token-of-32-characters';
  const exposition = (value: string | null) =>
    new MetricsExposition(
      { metrics: { token: value === null ? null : new Secret(value) } } as AppConfig,
      { registry: new Registry() } as unknown as MetricsRegistry,
    );

  it('accepts exactly the token as a bearer', () => {
    const e = exposition(token);
    expect(e.protectedRouteEnabled).toBe(true);
    expect(e.refusal(`Bearer ${token}`)).toBeNull();
    expect(e.refusal(`bearer  ${token} `)).toBeNull();
    expect(e.refusal(undefined)?.code).toBe('auth.missing_credentials');
    expect(e.refusal(token)?.code).toBe('auth.missing_credentials');
    expect(e.refusal(`Bearer ${token}0`)?.code).toBe('auth.invalid_token');
    expect(e.refusal(`Bearer ${token.toUpperCase()}`)?.code).toBe('auth.invalid_token');
    expect(e.refusal('Bearer x')?.code).toBe('auth.invalid_token');
  });

  it('refuses every bearer when no token is configured', () => {
    const e = exposition(null);
    expect(e.protectedRouteEnabled).toBe(false);
    expect(e.refusal(`Bearer ${token}`)?.kind).toBe('unauthenticated');
  });
});
