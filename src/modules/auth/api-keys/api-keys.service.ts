import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { canonicalDigest } from '../../../common/crypto/canonical-digest.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { CommonErrors } from '../../../common/errors/index.js';
import { decodeCursor, toPage, type Page } from '../../../common/pagination/cursor.js';
import type { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { UserAccounts, type UserAccount } from '../../users/index.js';
import { AuthErrors } from '../auth.errors.js';
import { API_KEY_PATTERN, ApiKeyDeriver, hashApiKey } from './api-key-deriver.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeyDto, type ApiKeyCreatedDto, type CreateApiKeyDto } from './dto/api-key.dto.js';

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly users: UserAccounts,
    private readonly deriver: ApiKeyDeriver,
  ) {}

  async create(owner: AuthenticatedUser, input: CreateApiKeyDto): Promise<ApiKeyCreatedDto> {
    const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at);
    const requestId = input.request_id ?? randomUUID();
    const payloadDigest = canonicalDigest([input.name, expiresAt?.toISOString() ?? null]);
    const derived = this.deriver.derive(owner.id, requestId);

    // A replay returns the first result, even once its expiry has passed; only new keys must expire later.
    // A revoked key never comes back: not while its row is kept, nor after the purge (its tombstone).
    // The row is read before the tombstone: a purge committing in between leaves the tombstone visible.
    let row = await this.keys.findByRequest(owner.id, requestId);
    if (row !== null && row.revokedAt !== null) throw AuthErrors.apiKeyRequestRevoked(requestId);
    if (row === null) {
      if (await this.keys.wasPurged(owner.id, requestId)) throw AuthErrors.apiKeyRequestRevoked(requestId);
      if (expiresAt !== null && expiresAt.getTime() <= Date.now()) throw AuthErrors.expiryInPast();
      row = await this.keys.insertOrGetByRequest({
        id: derived.id,
        userId: owner.id,
        name: input.name,
        keyPrefix: derived.prefix,
        keyHash: derived.hash,
        requestId,
        payloadDigest,
        expiresAt,
      });
    }
    if (row.payloadDigest !== payloadDigest) throw CommonErrors.requestIdConflict(requestId);
    const key = this.deriver.rederive(owner.id, requestId, row.keyHash);
    if (key === null) throw AuthErrors.replayUnavailable(requestId);
    return {
      id: row.id,
      name: row.name,
      key_prefix: row.keyPrefix,
      key: key.key,
      expires_at: row.expiresAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
    };
  }

  async list(actor: AuthenticatedUser, query: PageQueryDto): Promise<Page<ApiKeyDto>> {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const ownerId = actor.role === 'superadmin' ? null : actor.id;
    return toPage(await this.keys.listPage(ownerId, query.limit, after), query.limit, (row) =>
      ApiKeyDto.from(row),
    );
  }

  /** Owners revoke their keys, a superadmin any key; anyone else gets 404 (existence is not revealed). */
  async revoke(actor: AuthenticatedUser, id: string): Promise<void> {
    const row = await this.keys.findById(id);
    if (row === null || (row.userId !== actor.id && actor.role !== 'superadmin'))
      throw AuthErrors.apiKeyNotFound();
    await this.keys.revoke(id);
  }

  /** The key's owner, or an `auth.*` error. Disabled owners are the caller's to refuse. */
  async authenticate(key: string): Promise<{ user: UserAccount; apiKeyId: string }> {
    if (!API_KEY_PATTERN.test(key)) throw AuthErrors.invalidApiKey();
    const row = await this.keys.findByHash(hashApiKey(key));
    const user = row === null ? null : await this.users.findById(row.userId);
    if (row === null || user === null) throw AuthErrors.invalidApiKey();
    if (row.revokedAt !== null) throw AuthErrors.apiKeyRevoked();
    if (row.expiresAt !== null && row.expiresAt.getTime() <= Date.now()) throw AuthErrors.apiKeyExpired();
    if (row.lastUsedAt === null || row.lastUsedAt.getTime() < Date.now() - 60_000) {
      // At most one write per key per minute; a failure to record use never refuses the request.
      await this.keys.touch(row.id).catch((error: unknown) => {
        this.logger.warn({ err: (error as Error).message }, 'could not record API key use');
      });
    }
    return { user, apiKeyId: row.id };
  }
}
