import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { CommonErrorCode } from '../../../common/errors/index.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';
import {
  KnowledgeFileDto,
  KnowledgeFilePageDto,
  ListKnowledgeFilesQueryDto,
} from '../dto/knowledge-file.dto.js';
import { KnowledgeErrorCode, KnowledgeErrors } from '../knowledge.errors.js';
import { KbManagerGuard } from './kb-manager.guard.js';
import { KbUploadInterceptor, type UploadedTempFile } from './kb-upload.js';
import { KB_FILE_TYPES, KnowledgeFilesService } from './knowledge-files.service.js';

@ApiTags('Knowledge')
@ApiBearerAuth()
@ApiErrors(400, 401, [404, KnowledgeErrorCode.NOT_FOUND])
@Controller('knowledge-bases/:kb_id/files')
export class KnowledgeFilesController {
  constructor(private readonly files: KnowledgeFilesService) {}

  @Post()
  // The manager check is a guard so it is decided before multer reads the body; the upload interceptor
  // is the outer one, so it sees every failure after multer stored the file.
  @UseGuards(KbManagerGuard)
  @UseInterceptors(KbUploadInterceptor, FileInterceptor('file'))
  @ApiOperation({
    summary: `Upload a document (${KB_FILE_TYPES.join(', ')}); parsed and indexed on the queue. The same name again is a new version`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiCreatedResponse({ type: KnowledgeFileDto })
  @ApiErrors(
    [400, KnowledgeErrorCode.NO_FILE],
    [403, KnowledgeErrorCode.MANAGE_FORBIDDEN],
    [413, CommonErrorCode.PAYLOAD_TOO_LARGE],
    [422, KnowledgeErrorCode.UNSUPPORTED_FILE_TYPE],
    503,
  )
  upload(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('kb_id', uuidParam('kb_id')) kbId: string,
    @UploadedFile() file: UploadedTempFile | undefined,
  ): Promise<KnowledgeFileDto> {
    if (file === undefined) throw KnowledgeErrors.noFile();
    return this.files.upload(actor, kbId, file);
  }

  @Get()
  @ApiOperation({ summary: 'Files with their status, newest first; `query` filters by name' })
  @ApiOkResponse({ type: KnowledgeFilePageDto })
  list(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('kb_id', uuidParam('kb_id')) kbId: string,
    @Query() query: ListKnowledgeFilesQueryDto,
  ): Promise<KnowledgeFilePageDto> {
    return this.files.list(actor, kbId, query);
  }

  @Get(':file_id')
  @ApiOperation({ summary: 'One file: status (`pending|parsing|indexed|failed`) and error' })
  @ApiOkResponse({ type: KnowledgeFileDto })
  @ApiErrors([404, KnowledgeErrorCode.NOT_FOUND, KnowledgeErrorCode.FILE_NOT_FOUND])
  get(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('kb_id', uuidParam('kb_id')) kbId: string,
    @Param('file_id', uuidParam('file_id')) fileId: string,
  ): Promise<KnowledgeFileDto> {
    return this.files.get(actor, kbId, fileId);
  }

  @Delete(':file_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a file and its chunks (managers)' })
  @ApiErrors(
    [403, KnowledgeErrorCode.MANAGE_FORBIDDEN],
    [404, KnowledgeErrorCode.NOT_FOUND, KnowledgeErrorCode.FILE_NOT_FOUND],
  )
  remove(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('kb_id', uuidParam('kb_id')) kbId: string,
    @Param('file_id', uuidParam('file_id')) fileId: string,
  ): Promise<void> {
    return this.files.remove(actor, kbId, fileId);
  }
}
