import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { STATE_FILE } from './global-setup';

// Workers read the throwaway database's URL that global setup wrote.
process.env.TEST_DATABASE_URL ??= (JSON.parse(readFileSync(STATE_FILE, 'utf8')) as { url: string }).url;
process.env.LOG_LEVEL ??= 'error';
