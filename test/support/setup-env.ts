import 'reflect-metadata';

// Global setup created the run's throwaway database and put its URL in the environment.
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (npm test)');
process.env.LOG_LEVEL ??= 'error';
