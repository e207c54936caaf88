import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, Matches } from 'class-validator';

/** A lowercase DNS host name (no scheme, port, path or wildcard). */
const HOST = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

export class SkillsSettingsDto {
  @ApiProperty({
    type: [String],
    example: ['github.com', 'modelscope.cn'],
    description:
      'Hosts a remote skill source may name (exact match, lowercase); empty disables remote installs',
  })
  remote_source_allowed_hosts: string[];
}

export class UpdateSkillsSettingsDto {
  @ApiProperty({ type: [String], example: ['github.com', 'modelscope.cn'] })
  @IsArray()
  @ArrayMaxSize(100)
  @ArrayUnique()
  @Matches(HOST, { each: true, message: 'each host must be a lowercase host name such as github.com' })
  remote_source_allowed_hosts: string[];
}
