import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { RequestWithUser } from '../../../common/auth/auth.decorators.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';
import { KnowledgeBasesService } from '../bases/knowledge-bases.service.js';

/**
 * Admits only managers of the base in `:kb_id` (404 for those who cannot read it, 403 for readers).
 * Guards run before interceptors, so on the upload route this is decided before multer reads a byte.
 */
@Injectable()
export class KbManagerGuard implements CanActivate {
  private readonly idPipe = uuidParam('kb_id');

  constructor(private readonly kbs: KnowledgeBasesService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithUser>();
    if (req.user === undefined) return false;
    const kbId = String(req.params.kb_id);
    await this.idPipe.transform(kbId, { type: 'param', data: 'kb_id' });
    await this.kbs.managed(req.user, kbId);
    return true;
  }
}
