import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { roleAtLeast } from '../../../common/auth/user-role.js';
import { DomainError } from '../../../common/errors/index.js';
import { decodeKeyCursor, pageByKey } from '../../../common/pagination/key-cursor.js';
import type { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { SafeHttpClient } from '../../../common/http-safety/index.js';
import { isReservedSlug } from '../builtin/builtin-mcp-servers.js';
import { KnowledgeMcpEndpoint } from '../knowledge/knowledge-mcp-endpoint.js';
import type { CreateMcpServerDto } from '../dto/create-mcp-server.dto.js';
import type { McpServerDto, McpServerListDto } from '../dto/mcp-server.dto.js';
import type { UpdateMcpServerDto } from '../dto/update-mcp-server.dto.js';
import { McpErrors } from '../mcp.errors.js';
import { HeaderSecrets } from './header-secrets.js';
import { McpServerEntity } from './mcp-server.entity.js';
import { recordOf, summaryOf } from './mcp-server-view.js';
import { McpServersRepository, type McpServerChanges } from './mcp-servers.repository.js';
import { McpToolSwitches } from './mcp-tool-switches.js';

/** The admin side of MCP server records: create, read, edit, delete, enable. */
@Injectable()
export class McpServersService {
  constructor(
    private readonly repository: McpServersRepository,
    private readonly secrets: HeaderSecrets,
    private readonly http: SafeHttpClient,
    private readonly knowledge: KnowledgeMcpEndpoint,
    private readonly switches: McpToolSwitches,
  ) {}

  /** Admins page every server (full records), users the enabled ones (summaries). */
  async list(actor: AuthenticatedUser, query: PageQueryDto): Promise<McpServerListDto> {
    const admin = roleAtLeast(actor.role, 'admin');
    const after = query.cursor === undefined ? null : decodeKeyCursor(query.cursor, 1)[0];
    const rows = await this.repository.pageBySlug({
      enabledOnly: !admin,
      afterSlug: after,
      count: query.limit + 1,
    });
    return pageByKey(
      rows,
      query,
      (row) => [row.slug],
      (row) => (admin ? this.record(row) : summaryOf(row)),
      1,
    );
  }

  async get(slug: string): Promise<McpServerDto> {
    return this.record(await this.require(slug));
  }

  async create(actor: AuthenticatedUser, body: CreateMcpServerDto): Promise<McpServerDto> {
    if (isReservedSlug(body.slug)) throw McpErrors.builtinSlug(body.slug);
    this.checkUrl(body.url);
    const id = randomUUID();
    const row = Object.assign(new McpServerEntity(), {
      id,
      slug: body.slug,
      name: body.name,
      description: body.description ?? '',
      transport: body.transport,
      url: body.url,
      headersSealed: this.secrets.seal(id, body.headers ?? {}),
      timeoutS: body.timeout_s ?? 30,
      sseReadTimeoutS: body.sse_read_timeout_s ?? 300,
      tags: body.tags ?? [],
      icon: body.icon ?? null,
      enabled: true,
      disabledTools: [],
      source: 'custom' as const,
      createdBy: actor.id,
      updatedBy: actor.id,
    });
    return this.record(await this.repository.insert(row));
  }

  async update(actor: AuthenticatedUser, slug: string, body: UpdateMcpServerDto): Promise<McpServerDto> {
    const row = await this.require(slug);
    if (row.source === 'builtin') throw McpErrors.builtinImmutable(slug);
    if (body.url !== undefined) this.checkUrl(body.url);
    const changes: McpServerChanges = { updatedBy: actor.id };
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.transport !== undefined) changes.transport = body.transport;
    if (body.url !== undefined) changes.url = body.url;
    if (body.timeout_s !== undefined) changes.timeoutS = body.timeout_s;
    if (body.sse_read_timeout_s !== undefined) changes.sseReadTimeoutS = body.sse_read_timeout_s;
    if (body.tags !== undefined) changes.tags = body.tags;
    if (body.icon !== undefined) changes.icon = body.icon;
    const stored = this.secrets.open(row.id, row.headersSealed);
    if (pointsElsewhere(row, body)) {
      // Stored secrets were given for the old endpoint: only values re-sent in clear go to the new one.
      changes.headersSealed = this.secrets.seal(row.id, HeaderSecrets.inClear(stored, body.headers ?? {}));
    } else if (body.headers !== undefined) {
      changes.headersSealed = this.secrets.seal(row.id, HeaderSecrets.merge(stored, body.headers));
    }
    return this.record(await this.repository.update(row.id, changes));
  }

  async remove(slug: string): Promise<void> {
    const row = await this.require(slug);
    if (row.source === 'builtin') throw McpErrors.builtinImmutable(slug);
    await this.repository.delete(row.id);
    this.switches.forget(slug);
  }

  async setEnabled(actor: AuthenticatedUser, slug: string, enabled: boolean): Promise<McpServerDto> {
    const row = await this.require(slug);
    if (enabled && row.transport === 'stdio') throw McpErrors.transportNotSupported(slug, row.transport);
    const updated = await this.repository.update(row.id, { enabled, updatedBy: actor.id });
    this.switches.forget(slug);
    return this.record(updated);
  }

  async require(slug: string): Promise<McpServerEntity> {
    const row = await this.repository.findBySlug(slug);
    if (row === null) throw McpErrors.notFound(slug);
    return row;
  }

  headersOf(row: McpServerEntity) {
    return this.secrets.open(row.id, row.headersSealed);
  }

  private record(row: McpServerEntity): McpServerDto {
    return recordOf(row, this.headersOf(row));
  }

  /**
   * Scheme and literal address (the allowlist honoured); names are checked at connect time. The
   * knowledge endpoint is the builtin's alone, whatever the allowlist says.
   */
  private checkUrl(url: string): void {
    if (this.knowledge.isEndpoint(url)) throw McpErrors.urlNotAllowed(url, 'knowledge_endpoint');
    try {
      this.http.checkUrl(url);
    } catch (error) {
      if (error instanceof DomainError) {
        const { reason, url: shown } = (error.details ?? {}) as { reason?: string; url?: string };
        throw McpErrors.urlNotAllowed(shown ?? '(url)', reason ?? 'refused');
      }
      throw error;
    }
  }
}

/** Whether an edit moves the server to another origin (scheme, host, port) or transport. */
function pointsElsewhere(row: McpServerEntity, body: UpdateMcpServerDto): boolean {
  if (body.transport !== undefined && body.transport !== row.transport) return true;
  return body.url !== undefined && originOf(body.url) !== originOf(row.url);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
