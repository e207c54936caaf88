import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../../common/auth/auth.decorators.js';
import { AuthErrorCode } from '../../common/auth/auth.errors.js';
import { CommonErrorCode } from '../../common/errors/index.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CreateMcpServerDto } from './dto/create-mcp-server.dto.js';
import { McpServerDto, McpServerListDto, McpTestResultDto, McpToolListDto } from './dto/mcp-server.dto.js';
import { SetEnabledDto } from './dto/status.dto.js';
import { UpdateMcpServerDto } from './dto/update-mcp-server.dto.js';
import { MCP_TEST_FAILURE_CODES, McpErrorCode } from './mcp.errors.js';
import { McpServerToolsService } from './servers/mcp-server-tools.service.js';
import { McpServersService } from './servers/mcp-servers.service.js';

@ApiTags('MCP servers')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('system/mcp-servers')
export class McpServersController {
  constructor(
    private readonly servers: McpServersService,
    private readonly tools: McpServerToolsService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'MCP servers: admins get full records (header values redacted), users the enabled servers only',
  })
  @ApiOkResponse({ type: McpServerListDto })
  list(@CurrentUser() actor: AuthenticatedUser, @Query() query: PageQueryDto): Promise<McpServerListDto> {
    return this.servers.list(actor, query);
  }

  @Post()
  @Roles('admin')
  @ApiOperation({ summary: 'Add a remote MCP server (created enabled; streamable_http or sse only)' })
  @ApiErrors([400, CommonErrorCode.VALIDATION_FAILED, McpErrorCode.URL_NOT_ALLOWED], 403, [
    409,
    McpErrorCode.SLUG_TAKEN,
    McpErrorCode.BUILTIN_SLUG,
  ])
  create(@CurrentUser() actor: AuthenticatedUser, @Body() body: CreateMcpServerDto): Promise<McpServerDto> {
    return this.servers.create(actor, body);
  }

  @Get(':slug')
  @Roles('admin')
  @ApiOperation({ summary: 'One MCP server, header values redacted' })
  @ApiErrors(403, [404, McpErrorCode.NOT_FOUND])
  get(@Param('slug') slug: string): Promise<McpServerDto> {
    return this.servers.get(slug);
  }

  @Patch(':slug')
  @Roles('admin')
  @ApiOperation({
    summary: 'Change submitted fields; a header value sent back in its redacted form keeps the stored secret',
    description:
      "When the edit changes the URL's origin (scheme, host, port) or the transport, the stored headers " +
      'are dropped: only header values sent in clear in the same PATCH are kept (a redacted value is not).',
  })
  @ApiErrors(
    [400, CommonErrorCode.VALIDATION_FAILED, McpErrorCode.URL_NOT_ALLOWED],
    [403, AuthErrorCode.FORBIDDEN, McpErrorCode.BUILTIN_IMMUTABLE],
    [404, McpErrorCode.NOT_FOUND],
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
  @ApiErrors([403, AuthErrorCode.FORBIDDEN, McpErrorCode.BUILTIN_IMMUTABLE], [404, McpErrorCode.NOT_FOUND])
  remove(@Param('slug') slug: string): Promise<void> {
    return this.servers.remove(slug);
  }

  @Put(':slug/status')
  @Roles('admin')
  @ApiOperation({ summary: 'Enable or disable a server (a disabled server gives no tools to any run)' })
  @ApiErrors(403, [404, McpErrorCode.NOT_FOUND], [409, McpErrorCode.TRANSPORT_NOT_SUPPORTED])
  setStatus(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: SetEnabledDto,
  ): Promise<McpServerDto> {
    return this.servers.setEnabled(actor, slug, body.enabled);
  }

  @Post(':slug/test')
  @Roles('admin')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Connect now and list tools: `{ok: true, latency_ms, tools}` or `{ok: false, error: {code, message}}`',
    description:
      `Error codes in \`error.code\`: ${MCP_TEST_FAILURE_CODES.map((c) => `\`${c}\``).join(', ')} ` +
      '(protocol_error: not an MCP endpoint; url_not_allowed: SSRF refusal at connect time or on a redirect).',
  })
  @ApiErrors(403, [404, McpErrorCode.NOT_FOUND])
  test(@CurrentUser() actor: AuthenticatedUser, @Param('slug') slug: string): Promise<McpTestResultDto> {
    return this.tools.test(actor, slug);
  }

  @Get(':slug/tools')
  @Roles('admin')
  @ApiOperation({
    summary: "The server's tools with `enabled` and their MCP annotations (cached per connection config)",
  })
  @ApiErrors(
    403,
    [404, McpErrorCode.NOT_FOUND],
    [409, McpErrorCode.TRANSPORT_NOT_SUPPORTED],
    [503, McpErrorCode.SERVER_UNAVAILABLE],
  )
  @ApiOkResponse({ type: McpToolListDto })
  listTools(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Query() query: PageQueryDto,
  ): Promise<McpToolListDto> {
    return this.tools.tools(actor, slug, query);
  }

  @Put(':slug/tools/:name/status')
  @Roles('admin')
  @HttpCode(204)
  @ApiOperation({ summary: 'Enable or disable one tool (a disabled tool is neither offered nor executable)' })
  @ApiErrors(
    403,
    [404, McpErrorCode.NOT_FOUND, McpErrorCode.TOOL_NOT_FOUND],
    [409, McpErrorCode.TRANSPORT_NOT_SUPPORTED],
    [503, McpErrorCode.SERVER_UNAVAILABLE],
  )
  setToolStatus(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Param('name') name: string,
    @Body() body: SetEnabledDto,
  ): Promise<void> {
    return this.tools.setToolEnabled(actor, slug, name, body.enabled);
  }
}
