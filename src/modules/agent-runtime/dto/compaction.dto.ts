import { ApiProperty } from '@nestjs/swagger';

export class CompactionAcceptedDto {
  @ApiProperty() thread_id: string;
  @ApiProperty({ enum: ['queued'], description: 'A worker compresses the thread when it is still idle.' })
  status: 'queued';
}
