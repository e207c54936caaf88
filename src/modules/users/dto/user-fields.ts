import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

export const USERNAME_PATTERN = /^[a-zA-Z0-9_.-]{3,64}$/;

export const UsernameField = () =>
  applyDecorators(
    ApiProperty({ example: 'alice', pattern: USERNAME_PATTERN.source }),
    IsString(),
    Matches(USERNAME_PATTERN, {
      message: 'username must be 3-64 letters, digits, dots, dashes or underscores',
    }),
  );

export const PasswordField = (required: boolean) =>
  applyDecorators(
    ApiProperty({ minLength: 8, maxLength: 256, required, format: 'password' }),
    IsString(),
    MinLength(8),
    MaxLength(256),
  );
