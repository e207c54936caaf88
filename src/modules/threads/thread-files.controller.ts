import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  StreamableFile,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiNoContentResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ArtifactsService } from '../artifacts/index.js';
import { WorkspaceService, WorkspaceErrorCode } from '../workspace/index.js';
import { ArtifactListDto, FileQueryDto, UploadedPathDto } from './dto/thread.dto.js';
import { ThreadsErrors, ThreadsErrorCode } from './threads.errors.js';
import { ThreadsService, workdirOf } from './threads.service.js';
import { uuidParam } from '../../common/validation/uuid-param.pipe.js';
import { ThreadOwnerGuard } from './upload/thread-owner.guard.js';
import { UploadCleanupInterceptor } from './upload/upload-cleanup.interceptor.js';
import { CommonErrorCode } from '../../common/errors/index.js';

/** What multer's disk storage hands over (the fields used here): the body's file, complete, in a temp file. */
interface UploadedTempFile {
  originalname: string;
  path: string;
  size: number;
}

/** Files of a thread's workdir: upload, download, and the artifacts presented in it. */
@ApiTags('Workspace and artifacts')
@ApiBearerAuth()
@ApiErrors(400, 401, [404, ThreadsErrorCode.NOT_FOUND, WorkspaceErrorCode.NOT_FOUND])
@Controller('threads/:id')
export class ThreadFilesController {
  constructor(
    private readonly threads: ThreadsService,
    private readonly workspace: WorkspaceService,
    private readonly artifacts: ArtifactsService,
  ) {}

  @Post('files')
  // Ownership is a guard so it is decided before the interceptor reads the body; the cleanup
  // interceptor is the outer one, so it sees every failure after multer stored the file.
  @UseGuards(ThreadOwnerGuard)
  @UseInterceptors(UploadCleanupInterceptor, FileInterceptor('file'))
  @ApiOperation({ summary: "Upload a file into the thread's workdir (never overwrites: name-1.ext, …)" })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiErrors([413, CommonErrorCode.PAYLOAD_TOO_LARGE, WorkspaceErrorCode.QUOTA_EXCEEDED])
  async upload(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
    @UploadedFile() file: UploadedTempFile | undefined,
  ): Promise<UploadedPathDto> {
    const thread = await this.threads.getOwned(user, id);
    if (file === undefined) throw ThreadsErrors.noFile();
    // multer decodes the multipart filename as latin1; clients send UTF-8.
    const name = Buffer.from(file.originalname, 'latin1').toString('utf8');
    return { path: await this.workspace.saveUpload(user, workdirOf(thread), name, file) };
  }

  @Get('files')
  @ApiOperation({ summary: 'Download a file the caller may see (path absolute or relative to the workdir)' })
  @ApiProduces('application/octet-stream')
  async download(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
    @Query() query: FileQueryDto,
  ): Promise<StreamableFile> {
    const thread = await this.threads.getOwned(user, id);
    const path = query.path.startsWith('/') ? query.path : `${workdirOf(thread)}${query.path}`;
    const file = await this.workspace.openForDownload(user, path);
    return new StreamableFile(file.stream, {
      type: file.mimeType,
      length: file.size,
      disposition: `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    });
  }

  @Delete('files')
  @HttpCode(204)
  @ApiOperation({
    summary: "Delete a file of the thread's workdir (path absolute or relative to the workdir)",
    description:
      "Only files inside this thread's workdir: any other path is 400 workspace.path_not_allowed " +
      '(reason outside_workdir; read_only, 403, for shared skills); a directory is 400 ' +
      'workspace.is_a_directory. Its bytes go back to the workspace quota.',
  })
  @ApiNoContentResponse()
  @ApiErrors(
    [
      400,
      CommonErrorCode.VALIDATION_FAILED,
      WorkspaceErrorCode.PATH_NOT_ALLOWED,
      WorkspaceErrorCode.IS_A_DIRECTORY,
    ],
    [403, WorkspaceErrorCode.PATH_NOT_ALLOWED],
  )
  async deleteFile(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
    @Query() query: FileQueryDto,
  ): Promise<void> {
    const thread = await this.threads.getOwned(user, id);
    await this.workspace.deleteFile(user, workdirOf(thread), query.path);
  }

  @Get('artifacts')
  @ApiOperation({ summary: 'Files presented in the thread, in presentation order' })
  @ApiOkResponse({ type: ArtifactListDto })
  async listArtifacts(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
    @Query() query: PageQueryDto,
  ): Promise<ArtifactListDto> {
    await this.threads.getOwned(user, id);
    const page = await this.artifacts.pageForThread(id, user.id, query);
    return {
      items: page.items.map((a) => ({
        path: a.path,
        run_id: a.runId,
        created_at: a.createdAt.toISOString(),
      })),
      next_cursor: page.next_cursor,
    };
  }
}
