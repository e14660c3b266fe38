// Mutation testing (npm run test:mutation; not part of npm test or CI). Jest runs with the
// project's own config (SWC transform, global setup making a throwaway database), so
// DATABASE_URL must be set. perTest coverage runs only the tests that reach a mutant.
// MUTATE=a,b (globs) narrows the run, e.g. MUTATE=src/db/sql.ts.
const MUTATE = [
  'rest-facade/request/*.ts',
  // The v3 vocabulary the facade shares with saved searches (coercion, conditions, sort).
  'src/kit/v3/*.ts',
  'src/context/visibility.ts',
  'src/db/sql.ts',
  'src/modules/*/*.service.ts',
];

/**
 * MUTATION_TESTS=a,b: test folders (every *.test.ts below) or test files. A service mutant
 * otherwise runs every HTTP test file importing the server (all of them, ~20 s a mutant); naming
 * the files about that service (MUTATE=src/modules/companies/company.service.ts
 * MUTATION_TESTS=test/integration/companies.test.ts,…) makes a service run feasible.
 */
function testMatch(list) {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => (entry.endsWith('.ts') ? `<rootDir>/${entry}` : `<rootDir>/${entry}/**/*.test.ts`));
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  // The project's jest config; roots widened so --findRelatedTests follows imports through the
  // sources (with roots = test/ only, it finds just the tests importing a file directly).
  // MUTATION_TESTS=test/unit keeps the tests to that folder: a quick run, at the price of the
  // mutants only integration tests kill (a parser mutant otherwise runs every HTTP test file).
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    enableFindRelatedTests: true,
    config: {
      roots: ['<rootDir>/test', '<rootDir>/src', '<rootDir>/rest-facade'],
      ...(process.env.MUTATION_TESTS ? { testMatch: testMatch(process.env.MUTATION_TESTS) } : {}),
    },
  },
  coverageAnalysis: 'perTest',
  // Static mutants (module-level tables and constants) need every test file for each of them:
  // over 40% of the mutants and almost all the time. Skipped; they show as "ignored".
  ignoreStatic: true,
  concurrency: 2,
  // Test files start a server; a mutant's run can take a while on a shared machine.
  timeoutMS: 60_000,
  timeoutFactor: 3,
  dryRunTimeoutMinutes: 20,
  mutate: process.env.MUTATE ? process.env.MUTATE.split(',') : MUTATE,
  ignorePatterns: ['.data', 'dist', 'reports', 'coverage', 'bench'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
};
