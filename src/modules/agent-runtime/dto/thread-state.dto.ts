import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WaitingPointDto } from '../questions/waiting-point.dto.js';
import { RunDto } from './run.dto.js';

export class ThreadArtifactDto {
  @ApiProperty() path: string;
  @ApiProperty() run_id: string;
  @ApiProperty() created_at: string;
}

export class ThreadStateDto {
  @ApiProperty({ type: RunDto, nullable: true, description: 'The run holding the thread, if any.' })
  active_run: RunDto | null;
  @ApiPropertyOptional({ type: WaitingPointDto, description: 'The open questions of a waiting run.' })
  waiting_point?: WaitingPointDto;
  @ApiProperty({ type: [ThreadArtifactDto] }) artifacts: ThreadArtifactDto[];
  @ApiProperty({ type: [String], description: 'Skills activated in the thread (Skills module).' })
  activated_skills: string[];
}
