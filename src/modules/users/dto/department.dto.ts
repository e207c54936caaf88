import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { DepartmentEntity } from '../department.entity.js';
import { WhenPresent } from '../../../common/validation/when-present.js';

export class CreateDepartmentDto {
  @ApiProperty({ example: 'Research' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional()
  @WhenPresent()
  @IsString()
  @MaxLength(2000)
  description?: string;
}

export class DepartmentDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;

  static from(department: DepartmentEntity): DepartmentDto {
    return { id: department.id, name: department.name, description: department.description };
  }
}

export class DepartmentPageDto {
  @ApiProperty({ type: [DepartmentDto] }) items: DepartmentDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}
