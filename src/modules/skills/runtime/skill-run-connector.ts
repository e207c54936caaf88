import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RunSkills } from '../../agent-runtime/index.js';
import { SkillResolution } from './skill-resolution.js';

/** Connects the skills side of run assembly: the resolver of step 1. */
@Injectable()
export class SkillRunConnector implements OnModuleInit {
  constructor(
    private readonly runSkills: RunSkills,
    private readonly resolution: SkillResolution,
  ) {}

  onModuleInit(): void {
    this.runSkills.connect(this.resolution);
  }
}
