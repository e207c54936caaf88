import { Injectable } from '@nestjs/common';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { AppConfig } from '../../../config/app-config.js';
import { KnowledgeDelegation, type DelegationGrant } from '../../knowledge/index.js';

/**
 * The builtin knowledge MCP server as a client reaches it: this application's own endpoint at
 * `KNOWLEDGE_MCP_URL`. It is trusted like the database URL, so its requests bypass the SSRF guard, but
 * only for exactly that URL (no other path, no redirect) and only for the builtin record. Every request
 * carries a delegation token minted at that moment for the grant of the call in progress (kept in
 * async-local storage, so one pooled session serves every run and each request speaks for its own run).
 * A request outside any grant carries no token and is refused by the endpoint (401).
 */
@Injectable()
export class KnowledgeMcpEndpoint {
  readonly url: string;
  private readonly target: URL;
  private readonly grants = new AsyncLocalStorage<DelegationGrant>();

  constructor(
    config: AppConfig,
    private readonly delegation: KnowledgeDelegation,
  ) {
    this.url = config.knowledgeMcp.url;
    this.target = new URL(this.url);
  }

  /** Whether `url` names the knowledge endpoint (same origin and path): no admin-made server may. */
  isEndpoint(url: string | URL): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    return parsed.origin === this.target.origin && samePath(parsed.pathname, this.target.pathname);
  }

  /** Runs `work` with every request it makes to the endpoint speaking for `grant`. */
  as<T>(grant: DelegationGrant, work: () => Promise<T>): Promise<T> {
    return this.grants.run(grant, work);
  }

  /** The transport's fetch: exactly the endpoint URL, no redirects, a fresh token per request. */
  readonly fetch: FetchLike = async (url, init) => {
    const parsed = new URL(url);
    if (parsed.href !== this.target.href) {
      throw new TypeError(`the knowledge MCP client only reaches ${this.target.href}`);
    }
    const headers = new Headers(init?.headers);
    headers.delete('authorization');
    const grant = this.grants.getStore();
    if (grant !== undefined) headers.set('authorization', `Bearer ${this.delegation.mint(grant)}`);
    return fetch(parsed, { ...init, headers, redirect: 'error' });
  };
}

function samePath(a: string, b: string): boolean {
  const trim = (p: string) => decodeURIComponent(p).replace(/\/+$/, '').toLowerCase();
  try {
    return trim(a) === trim(b);
  } catch {
    return false;
  }
}
