import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../../../config/app-config.js';
import { RunAuthorization } from '../../agent-runtime/index.js';
import { KnowledgeDelegation, type VerifiedDelegation } from '../delegation/knowledge-delegation.js';
import { KnowledgeMcpErrors } from '../knowledge.errors.js';

export type DelegatedRequest = Request & { knowledgeDelegation?: VerifiedDelegation };

/**
 * The endpoint's own front door (a Nest mount skips the SDK's Express helpers, so their checks are done
 * here): the `Host` must be one this deployment answers (DNS rebinding), an `Origin`, when a client sends
 * one, must be the endpoint's own, and the bearer must be a valid delegation token whose run (if it
 * names one) is still under way (401 otherwise): a token read from a finished run's traffic is dead
 * even before it expires.
 */
@Injectable()
export class KnowledgeMcpRequestGuard implements CanActivate {
  private readonly hosts: ReadonlySet<string>;
  private readonly protocol: string;

  constructor(
    config: AppConfig,
    private readonly delegation: KnowledgeDelegation,
    private readonly runs: RunAuthorization,
  ) {
    this.hosts = new Set(config.knowledgeMcp.allowedHosts);
    this.protocol = new URL(config.knowledgeMcp.url).protocol;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<DelegatedRequest>();
    const host = req.headers.host?.toLowerCase();
    if (host === undefined || !this.hosts.has(host)) throw KnowledgeMcpErrors.requestNotAllowed('host');
    const origin = req.headers.origin;
    if (origin !== undefined && !this.originAllowed(origin))
      throw KnowledgeMcpErrors.requestNotAllowed('origin');

    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const grant = match === null ? null : this.delegation.verify(match[1]);
    if (
      grant === null ||
      (grant.runId !== null && !(await this.runs.isActiveFor(grant.runId, grant.userId)))
    ) {
      http.getResponse<Response>().setHeader('WWW-Authenticate', 'Bearer realm="knowledge-mcp"');
      throw KnowledgeMcpErrors.delegationInvalid();
    }
    req.knowledgeDelegation = grant;
    return true;
  }

  private originAllowed(origin: string): boolean {
    try {
      const parsed = new URL(origin);
      return parsed.protocol === this.protocol && this.hosts.has(parsed.host.toLowerCase());
    } catch {
      return false;
    }
  }
}
