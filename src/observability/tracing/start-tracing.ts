import type { AppConfig } from '../../config/app-config.js';
import { setContentCapture } from './spans.js';

/** How long a shutdown waits for the last spans to be exported. */
const FLUSH_TIMEOUT_MS = 2_000;

let sdk: { shutdown(): Promise<void> } | null = null;

/**
 * Starts OpenTelemetry when `config.tracing` says so, before the role's code is loaded (the HTTP
 * instrumentation must patch `http` before Nest and Express take it). Off, nothing of the SDK is loaded:
 * the spans of this code base are the API's no-ops.
 */
export async function startTracing(config: AppConfig): Promise<void> {
  setContentCapture(config.tracing.captureContent);
  if (!config.tracing.enabled || sdk !== null) return;
  const { createTracingSdk } = await import('./tracing-sdk.js');
  const started = createTracingSdk(config.role);
  started.start();
  sdk = started;
}

/** Whether the SDK runs in this process (spans are recorded and exported). */
export function tracingStarted(): boolean {
  return sdk !== null;
}

/** Exports the spans still buffered and stops the SDK, giving up after a couple of seconds. */
export async function shutdownTracing(): Promise<void> {
  const running = sdk;
  if (running === null) return;
  sdk = null;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    running.shutdown().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS).unref())),
  ]);
  clearTimeout(timer);
}
