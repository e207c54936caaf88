import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { AppConfig } from '../../../config/app-config.js';
import { RunsErrors, RunsErrorCode } from '../runs/runs.errors.js';
import { RunsService } from '../runs/runs.service.js';
import { validateAnswers } from './answer-validation.js';
import { ApiAnswerErrors, pointToAnswer } from './point-to-answer.js';
import { SubmitAnswersDto, WaitingPointDto } from './waiting-point.dto.js';
import { WaitingPoints } from './waiting-points.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';

/** The questions a run asked (`ask_user_question`) and the owner's answers, which resume the same run. */
@ApiTags('Runs')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('runs/:id')
export class QuestionsController {
  constructor(
    private readonly runs: RunsService,
    private readonly waitingPoints: WaitingPoints,
    private readonly config: AppConfig,
  ) {}

  @Get('waiting-point')
  @ApiOperation({
    summary:
      "The run's latest waiting point (its questions or calls to decide, status, answers or decisions)",
  })
  @ApiErrors([404, RunsErrorCode.NOT_FOUND, RunsErrorCode.WAITING_POINT_NOT_FOUND])
  async get(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) runId: string,
  ): Promise<WaitingPointDto> {
    await this.runs.getOwned(user, runId);
    const point = await this.waitingPoints.latest(runId);
    if (point === null) throw RunsErrors.noWaitingPoint();
    return WaitingPointDto.from(point);
  }

  @Post('answers')
  @HttpCode(200)
  @ApiOperation({ summary: 'Answer the open questions of a waiting run: the same run resumes' })
  @ApiAnswerErrors()
  async answer(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) runId: string,
    @Body() body: SubmitAnswersDto,
  ): Promise<WaitingPointDto> {
    const { point } = await pointToAnswer(this.runs, this.waitingPoints, user, runId, 'questions');
    const answers = validateAnswers(point.questions, body.answers, this.config.runtime.answerMaxChars);
    return WaitingPointDto.from(
      await this.waitingPoints.answer(
        point,
        { kind: 'questions', value: answers },
        user.id,
        body.request_id ?? null,
      ),
    );
  }
}
