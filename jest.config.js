/** One test root: test/unit (pure logic), test/integration (real app, PostgreSQL, Redis), test/e2e (processes). */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  transform: { '^.+\\.(t|j)s$': swc },
  // Nest 12 ships ESM only: let swc compile it (and its ESM dependencies) for Jest's CommonJS runtime.
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|file-type|strtok3|token-types|peek-readable|uint8array-extras|@tokenizer)/)',
  ],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30_000,
  maxWorkers: 2,
  // Each file boots whole apps; what a file leaves behind in a worker adds up across hundreds of files
  // (a worker reached 4 GB and its later suites timed out starting). A worker past this is replaced.
  workerIdleMemoryLimit: '1536MB',
};
