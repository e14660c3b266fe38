/** Tests run TypeScript through SWC, keeping decorator metadata (TypeGraphQL and MikroORM need it). */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', swc] },
  // Agenda 6 and its backends are ES modules only: compiled to CommonJS like our own code
  // (node itself loads them with require() since Node 20.19; Jest's module system does not).
  transformIgnorePatterns: ['/node_modules/(?!(agenda|@agendajs|auto-bind)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  testTimeout: 30000,
};
