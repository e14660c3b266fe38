import { createV3RecordReader, operationsSource } from '../../rest-facade';
import { createSchema } from '../app/schema';
import type { RequestContext } from '../context/context';
import { compileOperations } from '../graphql/executor';
import type { LeafOptions } from '../graphql/leaf-values';
import type { RecordReader } from '../modules/webhooks';

/**
 * The records webhook deliveries carry, read as v3 show routes answer them (the facade's reader),
 * on a schema of the worker's own: built at the first read (a worker that delivers no webhook
 * never builds it), and without the API's rate limits, which would charge the endpoint's owner
 * for the service's own reads.
 */
export function lazyRecordReader(leaves: LeafOptions): RecordReader {
  let reader: RecordReader | null = null;
  return (typeName, id, ctx) => {
    if (!reader) {
      const schema = createSchema();
      const operations = compileOperations(schema, operationsSource(schema), leaves);
      reader = createV3RecordReader<RequestContext>({ schema, run: operations.run });
    }
    return reader(typeName, id, ctx);
  };
}
