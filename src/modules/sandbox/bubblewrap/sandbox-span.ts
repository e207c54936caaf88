import {
  ATTR,
  errorTypeOf,
  inSpan,
  setContentAttribute,
  SpanKind,
  type Span,
} from '../../../observability/tracing/index.js';
import type { SandboxResult, SandboxRun, SandboxSpec } from '../sandbox.port.js';
import type { CommandLimits } from './bwrap-args.js';

/**
 * One sandboxed command as the span `sandbox execute`: its limits, then how it ended (exit code, timed
 * out, killed, over quota, duration, output and written bytes). The command text only while content
 * capture is on.
 */
export function inSandboxSpan(
  spec: SandboxSpec,
  limits: { command: CommandLimits; outputLimitBytes: number },
  run: () => Promise<SandboxRun>,
): Promise<SandboxRun> {
  return inSpan('sandbox execute', { kind: SpanKind.INTERNAL }, async (span) => {
    if (span.isRecording())
      span.setAttributes({
        [ATTR.sandboxTimeoutMs]: spec.timeoutMs,
        [ATTR.sandboxMemoryBytes]: limits.command.memoryBytes,
        [ATTR.sandboxCpuSeconds]: limits.command.cpuSeconds,
        [ATTR.sandboxMaxProcesses]: limits.command.maxProcesses,
        [ATTR.sandboxOutputLimitBytes]: limits.outputLimitBytes,
      });
    setContentAttribute(span, ATTR.sandboxCommand, () => spec.command);
    try {
      const done = await run();
      recordResult(span, done.result);
      return done;
    } catch (error) {
      if (span.isRecording()) span.setAttribute(ATTR.errorType, errorTypeOf(error));
      throw error;
    }
  });
}

function recordResult(span: Span, result: SandboxResult): void {
  if (!span.isRecording()) return;
  span.setAttributes({
    ...(result.exitCode === null ? {} : { [ATTR.sandboxExitCode]: result.exitCode }),
    [ATTR.sandboxTimedOut]: result.timedOut,
    // Only a killed command has no exit code (timeout, cancel, over quota, a limit).
    [ATTR.sandboxKilled]: result.exitCode === null,
    [ATTR.sandboxOverQuota]: result.overQuota,
    [ATTR.sandboxDurationMs]: result.durationMs,
    [ATTR.sandboxStdoutBytes]: Buffer.byteLength(result.stdout),
    [ATTR.sandboxStderrBytes]: Buffer.byteLength(result.stderr),
    [ATTR.sandboxOutputTruncated]: result.truncated,
    [ATTR.sandboxWrittenBytes]: result.writtenBytes,
  });
}
