import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';
import { AppConfig } from '../../../config/app-config.js';
import { approvalName } from '../../tools/index.js';
import { SubmitDecisionsDto, WaitingPointDto } from '../questions/waiting-point.dto.js';
import { ApiAnswerErrors, pointToAnswer } from '../questions/point-to-answer.js';
import { WaitingPoints } from '../questions/waiting-points.js';
import { RunsService } from '../runs/runs.service.js';
import { validateDecisions } from './decision-validation.js';
import { ThreadToolApprovals } from './thread-tool-approvals.js';

/** The owner's decisions on the tool calls a run's approval policy asked about: the same run resumes. */
@ApiTags('Runs')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('runs/:id')
export class ApprovalsController {
  constructor(
    private readonly runs: RunsService,
    private readonly waitingPoints: WaitingPoints,
    private readonly remembered: ThreadToolApprovals,
    private readonly config: AppConfig,
  ) {}

  @Post('approvals')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Decide the calls a waiting run asks about (approve, reject, edit): the same run resumes',
  })
  @ApiAnswerErrors()
  async decide(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) runId: string,
    @Body() body: SubmitDecisionsDto,
  ): Promise<WaitingPointDto> {
    const { run, point } = await pointToAnswer(this.runs, this.waitingPoints, user, runId, 'approval');
    const approvals = point.approvals ?? [];
    const decisions = validateDecisions(approvals, body.decisions, this.config.runtime.answerMaxChars);
    const remembered = approvals
      .filter((approval) => decisions[approval.tool_call_id].remember === 'thread')
      .map((approval) =>
        approvalName(approval.name, approval.server === undefined ? undefined : { server: approval.server }),
      );
    const answered = await this.waitingPoints.answer(
      point,
      {
        kind: 'approval',
        value: decisions,
        alsoIn: (manager) => this.remembered.rememberIn(manager, run.threadId, remembered, user.id),
      },
      user.id,
      body.request_id ?? null,
    );
    return WaitingPointDto.from(answered);
  }
}
