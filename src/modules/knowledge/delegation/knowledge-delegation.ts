import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createSecretKey, hkdfSync, randomUUID, type KeyObject } from 'node:crypto';
import { AppConfig } from '../../../config/app-config.js';

/** The audience of delegation tokens: nothing else accepts them, and they are accepted nowhere else. */
export const KNOWLEDGE_MCP_AUDIENCE = 'knowledge-mcp';
const ISSUER = 'yuxi-tool-platform';
const TOKEN_TYPE = 'knowledge_delegation';

/** Whom a token speaks for and what it may reach: the user running the agent, never the agent's owner. */
export interface DelegationGrant {
  userId: string;
  /** The run and thread the calls belong to; null for an admin's discovery (connection test, tool list). */
  runId: string | null;
  threadId: string | null;
  /** The knowledge bases of the run's snapshot: the widest the tools may reach (each call re-checks). */
  kbIds: readonly string[];
}

export interface VerifiedDelegation extends DelegationGrant {
  expiresAt: Date;
}

interface DelegationClaims {
  typ: typeof TOKEN_TYPE;
  sub: string;
  run: string | null;
  thread: string | null;
  kbs: string[];
}

/**
 * Short-lived delegation tokens for the builtin knowledge MCP server: HS256 JWTs under a key derived
 * (HKDF) from `SECRETS_KEY`, so an access token (signed with `JWT_SECRET`) can never pass as one, nor one
 * as an access token. Earlier `SECRETS_PREVIOUS_KEYS` still verify after a rotation. The runtime mints a
 * fresh token for every outbound call; the endpoint verifies signature, audience, issuer and expiry.
 */
@Injectable()
export class KnowledgeDelegation {
  private readonly signer: JwtService;
  private readonly verifiers: JwtService[];

  constructor(private readonly config: AppConfig) {
    const keys = [config.secrets.key, ...config.secrets.previousKeys].map((k) => deriveKey(k.reveal()));
    this.verifiers = keys.map((secret) => new JwtService({ secret }));
    this.signer = this.verifiers[0];
  }

  get ttlSeconds(): number {
    return this.config.knowledgeMcp.delegationTtlSeconds;
  }

  mint(grant: DelegationGrant): string {
    const claims: DelegationClaims = {
      typ: TOKEN_TYPE,
      sub: grant.userId,
      run: grant.runId,
      thread: grant.threadId,
      kbs: [...new Set(grant.kbIds)],
    };
    return this.signer.sign(claims, {
      algorithm: 'HS256',
      audience: KNOWLEDGE_MCP_AUDIENCE,
      issuer: ISSUER,
      expiresIn: this.ttlSeconds,
      jwtid: randomUUID(),
    });
  }

  /** The grant, or null when the token is malformed, forged, expired or meant for another audience. */
  verify(token: string): VerifiedDelegation | null {
    for (const verifier of this.verifiers) {
      let claims: Partial<DelegationClaims> & { exp?: number };
      try {
        claims = verifier.verify(token, {
          algorithms: ['HS256'],
          audience: KNOWLEDGE_MCP_AUDIENCE,
          issuer: ISSUER,
        });
      } catch {
        continue;
      }
      return grantOf(claims);
    }
    return null;
  }
}

function deriveKey(secretsKey: string): KeyObject {
  return createSecretKey(
    Buffer.from(hkdfSync('sha256', secretsKey, ISSUER, 'knowledge-mcp-delegation/v1', 32)),
  );
}

const isIdOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

function grantOf(claims: Partial<DelegationClaims> & { exp?: number }): VerifiedDelegation | null {
  const { typ, sub, run, thread, kbs, exp } = claims;
  if (typ !== TOKEN_TYPE || typeof sub !== 'string' || sub === '') return null;
  if (!isIdOrNull(run) || !isIdOrNull(thread) || typeof exp !== 'number') return null;
  if (!Array.isArray(kbs) || !kbs.every((id) => typeof id === 'string')) return null;
  return { userId: sub, runId: run, threadId: thread, kbIds: kbs, expiresAt: new Date(exp * 1000) };
}
