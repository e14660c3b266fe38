import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config/config';
import { createSchema, printCanonicalSchema } from '../app/schema';

/** `npm run schema:emit`: writes schema.graphql from the code (a test fails when the two drift). */
const target = join(loadConfig().projectRoot, 'schema.graphql');
writeFileSync(target, printCanonicalSchema(createSchema()));
process.stderr.write(`wrote ${target}\n`);
