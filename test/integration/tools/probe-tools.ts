import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { z } from 'zod';
import { DomainError } from '../../../src/common/errors/domain-error';
import type { ToolInvocation } from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolResourceAuthorizers } from '../../../src/modules/tools/execution/tool-resource-authorizers';
import { AgentTool } from '../../../src/modules/tools/registry/agent-tool.decorator';
import { ToolsModule } from '../../../src/modules/tools/tools.module';
import { RunAuthorizationRevokedError } from '../../../src/modules/tools/tools.errors';

const echoSchema = z.strictObject({
  text: z.string().trim().min(1),
  times: z.number().int().min(1).default(1),
});
const kbSchema = z.strictObject({ kb_id: z.string() });
const fileSchema = z.strictObject({ file_id: z.string() });
const empty = z.strictObject({});

/** Tools for exercising the execution boundary; `calls` counts handler entries. */
@Injectable()
export class ProbeTools {
  readonly calls: Record<string, number> = {};
  lastSignal: AbortSignal | undefined;

  private enter(name: string): void {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
  }

  @AgentTool({
    name: 'probe_echo',
    category: 'debug',
    tags: ['probe', '示例'],
    displayName: '回声',
    description: 'Repeats the text.',
    schema: echoSchema,
  })
  echo(args: z.infer<typeof echoSchema>) {
    this.enter('probe_echo');
    return Promise.resolve({ echoed: Array(args.times).fill(args.text).join(' ') });
  }

  @AgentTool({
    name: 'probe_slow',
    category: 'debug',
    tags: ['probe'],
    displayName: '慢',
    description: 'Never finishes.',
    schema: empty,
    timeoutMs: 150,
  })
  slow(_: unknown, invocation: ToolInvocation) {
    this.enter('probe_slow');
    this.lastSignal = invocation.signal;
    return new Promise<string>(() => undefined);
  }

  @AgentTool({
    name: 'probe_boom',
    category: 'debug',
    tags: ['probe'],
    displayName: '爆',
    description: 'Throws.',
    schema: empty,
  })
  boom(): Promise<string> {
    this.enter('probe_boom');
    return Promise.reject(new Error('connection string postgres://u:hunter2@db'));
  }

  @AgentTool({
    name: 'probe_refuse',
    category: 'debug',
    tags: ['probe'],
    displayName: '拒',
    description: 'Domain error.',
    schema: empty,
  })
  refuse(): Promise<string> {
    this.enter('probe_refuse');
    return Promise.reject(
      new DomainError('unprocessable', 'probe.nope', 'Not today.', { details: { why: 'test' } }),
    );
  }

  @AgentTool({
    name: 'probe_revoke',
    category: 'debug',
    tags: ['probe'],
    displayName: '撤',
    description: 'Revoked.',
    schema: empty,
  })
  revoke(): Promise<string> {
    this.enter('probe_revoke');
    return Promise.reject(new RunAuthorizationRevokedError('auth.account_disabled', 'account disabled'));
  }

  @AgentTool({
    name: 'probe_kb',
    category: 'debug',
    tags: ['probe'],
    displayName: '知识库',
    description: 'Reads a KB.',
    schema: kbSchema,
    resources: [{ kind: 'kb_id', arg: 'kb_id' }],
  })
  kb(args: z.infer<typeof kbSchema>) {
    this.enter('probe_kb');
    return Promise.resolve(`read ${args.kb_id}`);
  }

  @AgentTool({
    name: 'probe_file',
    category: 'debug',
    tags: ['probe'],
    displayName: '文件',
    description: 'A target kind nobody authorizes.',
    schema: fileSchema,
    resources: [{ kind: 'file_id', arg: 'file_id' }],
  })
  file() {
    this.enter('probe_file');
    return Promise.resolve('read');
  }

  @AgentTool({
    name: 'probe_parent_only',
    category: 'debug',
    tags: ['probe'],
    displayName: '仅主智能体',
    description: 'Forbidden for subagents.',
    schema: empty,
    forbiddenForSubagents: true,
  })
  parentOnly() {
    this.enter('probe_parent_only');
    return Promise.resolve('ok');
  }
}

/** Lets the caller read only the knowledge bases named `kb-<their user id>`. */
@Injectable()
export class ProbeKbAuthorizer implements OnModuleInit {
  constructor(private readonly authorizers: ToolResourceAuthorizers) {}

  onModuleInit(): void {
    this.authorizers.register({
      kind: 'kb_id',
      authorize: (value, _access, context) =>
        value === `kb-${context.user.id}`
          ? Promise.resolve()
          : Promise.reject(new DomainError('not_found', 'knowledge.kb_not_found', 'No such knowledge base.')),
    });
  }
}

@Module({ imports: [ToolsModule], providers: [ProbeTools, ProbeKbAuthorizer] })
export class ProbeToolsModule {}
