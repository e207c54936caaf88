import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CreateMcpServerDto } from './dto/create-mcp-server.dto.js';
import { McpServerDto, McpServerListDto } from './dto/mcp-server.dto.js';
import { SetEnabledDto } from './dto/status.dto.js';
import { UpdateMcpServerDto } from './dto/update-mcp-server.dto.js';
import { MCP_ERROR_CODES as CODES } from './mcp.errors.js';
import { McpServersService } from './servers/mcp-servers.service.js';

@ApiTags('MCP servers')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('system/mcp-servers')
export class McpServersController {
  constructor(private readonly servers: McpServersService) {}

  @Get()
  @ApiOperation({
    summary: 'MCP servers: admins get full records (header values redacted), users the enabled servers only',
  })
  list(@CurrentUser() actor: AuthenticatedUser): Promise<McpServerListDto> {
    return this.servers.list(actor);
  }

  @Post()
  @Roles('admin')
  @ApiOperation({ summary: 'Add a remote MCP server (created enabled; streamable_http or sse only)' })
  @ApiErrors([400, 'common.validation_failed', CODES.urlNotAllowed], 403, [
    409,
    CODES.slugTaken,
    CODES.builtinSlug,
  ])
  create(@CurrentUser() actor: AuthenticatedUser, @Body() body: CreateMcpServerDto): Promise<McpServerDto> {
    return this.servers.create(actor, body);
  }

  @Get(':slug')
  @Roles('admin')
  @ApiOperation({ summary: 'One MCP server, header values redacted' })
  @ApiErrors(403, [404, CODES.notFound])
  get(@Param('slug') slug: string): Promise<McpServerDto> {
    return this.servers.get(slug);
  }

  @Patch(':slug')
  @Roles('admin')
  @ApiOperation({
    summary: 'Change submitted fields; a header value sent back in its redacted form keeps the stored secret',
  })
  @ApiErrors(
    [400, 'common.validation_failed', CODES.urlNotAllowed],
    [403, 'auth.forbidden', CODES.builtinImmutable],
    [404, CODES.notFound],
  )
  update(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: UpdateMcpServerDto,
  ): Promise<McpServerDto> {
    return this.servers.update(actor, slug, body);
  }

  @Delete(':slug')
  @Roles('admin')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a custom MCP server (builtin servers cannot be deleted)' })
  @ApiErrors([403, 'auth.forbidden', CODES.builtinImmutable], [404, CODES.notFound])
  remove(@Param('slug') slug: string): Promise<void> {
    return this.servers.remove(slug);
  }

  @Put(':slug/status')
  @Roles('admin')
  @ApiOperation({ summary: 'Enable or disable a server (a disabled server gives no tools to any run)' })
  @ApiErrors(403, [404, CODES.notFound], [409, CODES.transportNotSupported])
  setStatus(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: SetEnabledDto,
  ): Promise<McpServerDto> {
    return this.servers.setEnabled(actor, slug, body.enabled);
  }
}
