import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { RequestWithUser } from '../../../common/auth/auth.decorators.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';
import { ThreadsService } from '../threads.service.js';

/**
 * Admits only the owner of the thread in `:id` (404 for anyone else, as on every thread route).
 * Guards run before interceptors, so on the upload route this is decided before multer reads a byte
 * of the body: a stranger's upload costs no disk and no memory.
 */
@Injectable()
export class ThreadOwnerGuard implements CanActivate {
  private readonly idPipe = uuidParam();

  constructor(private readonly threads: ThreadsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithUser>();
    if (req.user === undefined) return false;
    const id = String(req.params.id);
    await this.idPipe.transform(id, { type: 'param', data: 'id' });
    await this.threads.getOwned(req.user, id);
    return true;
  }
}
