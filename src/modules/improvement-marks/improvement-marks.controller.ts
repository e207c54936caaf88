import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ImprovementMarkDto, ImprovementMarkPageDto } from './dto/improvement-mark.dto.js';
import { ListImprovementMarksQueryDto } from './dto/list-improvement-marks-query.dto.js';
import { ImprovementMarksService } from './improvement-marks.service.js';
import { uuidParam } from '../../common/validation/uuid-param.pipe.js';
import { ImprovementMarksErrorCode } from './improvement-marks.errors.js';

@ApiTags('Improvement marks')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('improvement-marks')
export class ImprovementMarksController {
  constructor(private readonly marks: ImprovementMarksService) {}

  @Get()
  @ApiOperation({
    summary:
      "Marks saved by mark_for_improvement, newest first: admins see every mark, a user their own runs' marks",
  })
  @ApiOkResponse({ type: ImprovementMarkPageDto })
  list(
    @CurrentUser() viewer: AuthenticatedUser,
    @Query() query: ListImprovementMarksQueryDto,
  ): Promise<ImprovementMarkPageDto> {
    return this.marks.list(viewer, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One mark (admins: any; a user: one of their own runs)' })
  @ApiOkResponse({ type: ImprovementMarkDto })
  @ApiErrors([404, ImprovementMarksErrorCode.NOT_FOUND])
  get(
    @CurrentUser() viewer: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
  ): Promise<ImprovementMarkDto> {
    return this.marks.get(viewer, id);
  }
}
