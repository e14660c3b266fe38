// ESLint: typescript-eslint's recommended rules, plus the type-aware ones that catch promises
// nobody waits for and type-only imports written as values. `npm test` runs it (npm run lint).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', '.data/', 'reports/', 'scripts/', 'stryker.config.mjs', 'jest.config.js', 'eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // GraphQL results and v3 bodies are untyped JSON at the edges; `any` is allowed there, by review.
      '@typescript-eslint/no-explicit-any': 'off',
      // Sanitisers strip control characters on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // The build is CommonJS: a local named `exports` or `require` hides the module's own (a sweep
      // failed on every run in the built worker while the tests, compiled by swc, passed).
      'no-restricted-syntax': [
        'error',
        {
          selector: 'VariableDeclarator[id.name=/^(exports|require)$/]',
          message: "exports and require are the CommonJS module's own names in the build",
        },
      ],
    },
  },
);
