import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { ToolDto, ToolListDto, ToolListQueryDto } from '../dto/tool.dto.js';
import { ToolCatalog } from './tool-catalog.js';
import { ToolsErrorCode } from '../tools.errors.js';

@ApiTags('Tools')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('system/tools')
export class ToolsController {
  constructor(private readonly catalog: ToolCatalog) {}

  @Get()
  @ApiOperation({ summary: 'The tool catalog, with availability; filter by category and tag' })
  @ApiOkResponse({ type: ToolListDto })
  async list(@Query() query: ToolListQueryDto): Promise<ToolListDto> {
    return { items: await this.catalog.list(query) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One tool' })
  @ApiErrors([404, ToolsErrorCode.NOT_FOUND])
  get(@Param('id') id: string): Promise<ToolDto> {
    return this.catalog.get(id);
  }
}
