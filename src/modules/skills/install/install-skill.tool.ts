import { Injectable } from '@nestjs/common';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { CommonErrors } from '../../../common/errors/index.js';
import { AppConfig } from '../../../config/app-config.js';
import { AgentsService } from '../../agents/index.js';
import { ThreadsService } from '../../threads/index.js';
import { AgentTool, type ToolInvocation } from '../../tools/index.js';
import { WorkspacePathResolver } from '../../workspace/index.js';
import { parseSkillUpload, type UploadKind } from '../drafts/parse-skill-upload.js';
import { installOrder, selectedSkills } from '../drafts/select-skills.js';
import { skillUploadLimitBytes } from '../drafts/skill-upload.js';
import { RemoteSkillArchives } from '../remote/remote-skill-archives.js';
import { SkillsStore } from '../storage/skills.store.js';

const schema = z.strictObject({
  source: z.string().trim().min(1).max(2048),
  skill_names: z.array(z.string().trim().min(1).max(128)).min(1).max(100).optional(),
});

/** `https://…` and `owner/repo` are remote; absolute, `./…` and `.zip`/`.md` paths are workspace files. */
export const isWorkspaceSource = (source: string): boolean =>
  !/^[a-z][a-z0-9+.-]*:\/\//i.test(source) &&
  (/^[/.~]/.test(source) || /\.(zip|md)$/i.test(source) || !source.includes('/'));

/**
 * Installs skills as the running user's personal skills, from a workspace file (a .zip or a SKILL.md,
 * read-only through the workspace resolver) or a remote source; appends them to the agent's explicit
 * skills list when the user owns the agent. Main agents only.
 */
@Injectable()
export class InstallSkillTool {
  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly archives: RemoteSkillArchives,
    private readonly store: SkillsStore,
    private readonly threads: ThreadsService,
    private readonly agents: AgentsService,
    private readonly config: AppConfig,
  ) {}

  @AgentTool({
    name: 'install_skill',
    category: 'builtin',
    tags: ['技能'],
    displayName: '安装技能',
    description:
      "Install skills as the user's personal skills. `source`: a .zip or SKILL.md in the workspace " +
      '(e.g. /home/gem/user-data/workdir/<project>/skills.zip, or a path relative to the workdir), or a remote ' +
      'source on an allowed host (owner/repo for GitHub, or an https URL of a .zip); for a remote source ' +
      '`skill_names` (slug, name or folder of each skill to install) is required.',
    schema,
    forbiddenForSubagents: true,
    sideEffects: 'workspace',
  })
  async install(args: z.infer<typeof schema>, invocation: ToolInvocation): Promise<string> {
    const { context } = invocation;
    const remote = !isWorkspaceSource(args.source);
    if (remote && args.skill_names === undefined) {
      throw CommonErrors.validationFailed([
        { field: 'skill_names', messages: ['required for a remote source: name the skills to install'] },
      ]);
    }
    const { bytes, kind } = remote
      ? { bytes: await this.archives.fetch(args.source, invocation.signal), kind: 'zip' as UploadKind }
      : { bytes: await this.readWorkspaceFile(args.source, context), kind: undefined };
    const parsed = parseSkillUpload(bytes, kind);
    const items =
      args.skill_names === undefined ? parsed.items : selectedSkills(parsed.items, args.skill_names);
    const installed: string[] = [];
    for (const item of installOrder(items))
      installed.push(await this.store.installPersonal(context.user, item.pkg));
    const skipped = args.skill_names === undefined ? parsed.failures : [];
    return [
      `Installed ${installed.length} personal skill${installed.length === 1 ? '' : 's'}: ${installed.join(', ')}.`,
      ...skipped.map((f) => `Skipped ${f.path}: ${f.error}`),
      await this.updateAgent(context.user.id, context.threadId, installed),
    ].join('\n');
  }

  private async readWorkspaceFile(source: string, context: ToolInvocation['context']): Promise<Buffer> {
    const resolved = await this.resolver.resolve(context.user, source, {
      access: 'read',
      workdir: context.workdir,
    });
    const info = await stat(resolved.realPath).catch(() => null);
    const limit = skillUploadLimitBytes(this.config);
    if (info === null || !info.isFile()) {
      throw CommonErrors.validationFailed([
        { field: 'source', messages: [`"${resolved.virtualPath}" is not a file`] },
      ]);
    }
    if (info.size > limit) throw CommonErrors.payloadTooLarge(limit);
    return readFile(resolved.realPath);
  }

  private async updateAgent(userId: string, threadId: string, slugs: string[]): Promise<string> {
    const agentId = await this.threads.agentIdOf(userId, threadId);
    const outcome = agentId === null ? 'deleted' : await this.agents.appendOwnSkills(userId, agentId, slugs);
    switch (outcome) {
      case 'appended':
        return "Added to this agent's skills list.";
      case 'all':
        return 'The agent config was not changed (this agent uses all skills, the new ones included).';
      default:
        return 'The agent config was not changed (you do not own this agent); enable the skills in an agent you own.';
    }
  }
}
