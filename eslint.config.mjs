// Lint that catches real bugs: promises nobody awaits, promises where callbacks are expected,
// switches that miss a case. Type-aware, over src/, migrations/, test/, bench/ and the console's TypeScript;
// the console's Vue components get eslint-plugin-vue's rules. In src/, modules are
// entered through their front door only (eslint-rules/module-boundaries.cjs).
import { createRequire } from 'node:module';
import eslint from '@eslint/js';
import pluginVue from 'eslint-plugin-vue';
import tseslint from 'typescript-eslint';

const moduleBoundaries = createRequire(import.meta.url)('./eslint-rules/module-boundaries.cjs');

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'scripts/lib/*.js',
      'jest.config.js',
      'eslint.config.mjs',
      'eslint-rules/*.cjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // Tests and benchmarks may reach into a module to test its internals; src/ may not.
    files: ['src/**/*.ts'],
    plugins: { local: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: { 'local/module-boundaries': 'error' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  ...pluginVue.configs['flat/recommended'].map((config) => ({ ...config, files: ['console/**/*.vue'] })),
  {
    files: ['console/**/*.vue'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: {
        parser: tseslint.parser,
        sourceType: 'module',
        projectService: false,
        extraFileExtensions: ['.vue'],
      },
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      // vue-tsc checks names; ESLint does not know the browser's globals here.
      'no-undef': 'off',
      // Prettier owns the layout of templates.
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
    },
  },
);
