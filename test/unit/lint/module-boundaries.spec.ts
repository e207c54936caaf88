import { RuleTester } from 'eslint';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require('../../../eslint-rules/module-boundaries.cjs');

const src = path.resolve(__dirname, '../../../src');
const at = (relative: string): string => path.join(src, relative);

const tester = new RuleTester({
  languageOptions: {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    parser: require('@typescript-eslint/parser'),
    ecmaVersion: 2022,
    sourceType: 'module',
  },
});

describe('module-boundaries lint rule', () => {
  tester.run('module-boundaries', rule, {
    valid: [
      { filename: at('modules/threads/threads.service.ts'), code: "import { X } from '../agents/index.js';" },
      {
        filename: at('modules/threads/threads.service.ts'),
        code: "import { X } from './dto/thread.dto.js';",
      },
      { filename: at('modules/threads/dto/a.ts'), code: "import { X } from '../threads.errors.js';" },
      {
        filename: at('modules/threads/index.ts'),
        code: "export { ThreadsModule } from './threads.module.js';",
      },
      { filename: at('app.module.ts'), code: "import { ThreadsModule } from './modules/threads/index.js';" },
      { filename: at('common/errors/domain-error.ts'), code: "import { X } from '../crypto/secret-box.js';" },
      { filename: at('modules/threads/a.ts'), code: "import { Injectable } from '@nestjs/common';" },
    ],
    invalid: [
      {
        filename: at('modules/threads/thread-files.controller.ts'),
        code: "import { ThreadArtifactsRepository } from '../artifacts/thread-artifacts.repository.js';",
        errors: [{ messageId: 'deepImport' }],
      },
      {
        filename: at('modules/agent-runtime/worker/run-executor.ts'),
        code: "import { projectOf } from '../../threads/threads.service.js';",
        errors: [{ messageId: 'deepImport' }],
      },
      {
        filename: at('modules/agent-runtime/worker/run-executor.ts'),
        code: "export { projectOf } from '../../threads/threads.service.js';",
        errors: [{ messageId: 'deepImport' }],
      },
      {
        filename: at('modules/agent-runtime/worker/run-executor.ts'),
        code: "const m = import('../../threads/threads.module.js');",
        errors: [{ messageId: 'deepImport' }],
      },
      {
        filename: at('modules/agent-runtime/worker/run-executor.ts'),
        code: "type T = import('../../threads/thread.entity.js').ThreadEntity;",
        errors: [{ messageId: 'deepImport' }],
      },
      {
        filename: at('app.module.ts'),
        code: "import { ThreadsModule } from './modules/threads/threads.module.js';",
        errors: [{ messageId: 'deepImport' }],
      },
      {
        filename: at('database/entities.ts'),
        code: "import { THREAD_ENTITIES } from '../modules/threads/index.js';",
        errors: [{ messageId: 'infrastructureImport' }],
      },
      {
        filename: at('common/errors/global-exception.filter.ts'),
        code: "import { X } from '../../modules/users/index.js';",
        errors: [{ messageId: 'infrastructureImport' }],
      },
      {
        filename: at('modules/threads/index.ts'),
        code: "export * from './threads.module.js';",
        errors: [{ messageId: 'exportAll' }],
      },
    ],
  });
});
