import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class DependencyCheckDto {
  @ApiProperty({ enum: ['up', 'down'] }) status: 'up' | 'down';
  @ApiProperty() latency_ms: number;
}

export class HealthChecksDto {
  @ApiProperty() database: DependencyCheckDto;
  @ApiProperty() redis: DependencyCheckDto;
}

export class HealthDto {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status: 'ok' | 'unavailable';
  @ApiProperty() checks: HealthChecksDto;
}

export class LivenessDto {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
}

export class ConsumersCheckDto {
  @ApiProperty({ enum: ['up', 'down'], description: 'up once every queue consumer takes jobs' })
  status: 'up' | 'down';
  @ApiProperty({ description: 'Queue consumers taking jobs now' }) running: number;
  @ApiProperty({ description: 'Queue consumers this process has' }) total: number;
}

export class ReadinessChecksDto extends HealthChecksDto {
  @ApiPropertyOptional({ description: 'Absent in an APP_ROLE=api process, which consumes no queue' })
  consumers?: ConsumersCheckDto;
}

export class ReadinessDto {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status: 'ok' | 'unavailable';
  @ApiProperty({ description: 'Shutting down: in-flight work finishes, nothing new is taken' })
  draining: boolean;
  @ApiProperty() checks: ReadinessChecksDto;
}
