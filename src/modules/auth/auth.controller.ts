import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentUser, Public } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { AuthService } from './auth.service.js';
import { LoginDto, MeDto, TokenDto } from './dto/login.dto.js';
import { AuthErrorCode } from '../../common/auth/auth.errors.js';

@ApiTags('Identity')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in with username and password; returns a JWT' })
  @ApiErrors(
    400,
    [401, AuthErrorCode.INVALID_CREDENTIALS, AuthErrorCode.ACCOUNT_DISABLED],
    [429, AuthErrorCode.TOO_MANY_ATTEMPTS, AuthErrorCode.TOO_MANY_REQUESTS],
  )
  login(@Body() body: LoginDto, @Req() req: Request): Promise<TokenDto> {
    return this.auth.login(body, req.ip ?? 'unknown');
  }

  @Get('me')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The authenticated caller' })
  @ApiErrors(401)
  me(@CurrentUser() user: AuthenticatedUser): MeDto {
    return MeDto.from(user);
  }
}
