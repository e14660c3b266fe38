import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, getVariableValues, type DocumentNode } from 'graphql';
import { isStatementTimeout, type DomainError, type RateLimitedError } from '../common/errors';
import { graphqlCostRefusals } from '../common/metrics';
import type { RequestContext } from '../context/context';
import { fragmentsOf, operationCost } from './cost';
import { logMasked } from './errors';
import { checkInputSizes } from './input-limits';
import type { RateLimiter } from './rate-limit';

export interface GuardOptions {
  readonly limiter: RateLimiter;
  /** GRAPHQL_MAX_COST: the most one operation may cost (also bounded by the caller's burst). */
  readonly maxCost: number;
}

function badRequest(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status: 400 } } });
}

/** Why no operation could be chosen from the document (graphql-js would only say it later, as a 500). */
function selectionProblem(document: DocumentNode, operationName: string | undefined | null): string {
  const names = document.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name?.value ?? '(anonymous)'] : []));
  if (operationName) return `Unknown operation named "${operationName}": the document defines ${names.length ? names.join(', ') : 'no operation'}`;
  return `The document defines ${names.length} operations (${names.join(', ')}): name the one to run in operationName`;
}

/**
 * The /graphql request guard, as an Apollo plugin (it runs once the operation is resolved, before
 * anything executes):
 * - refuses a request whose operation cannot be chosen, and subscriptions (not supported), with a 400;
 * - refuses over-long strings and over-deep or over-large JSON values in arguments (input-limits.ts), 400;
 * - computes the operation's cost (cost.ts, at least 1), refuses it above the maximum (400; the 1
 *   every request takes on arrival stays taken), else charges the rest to the caller's token
 *   bucket at once (429 with Retry-After when it lacks tokens, or when a field's own windowed
 *   limit refused the operation's only answer);
 * - reports `extensions.cost: {requested, charged, remaining}` and the X-Ratelimit-* headers on
 *   every response, and logs every masked error with its request id.
 */
export function guardPlugin({ limiter, maxCost }: GuardOptions): ApolloServerPlugin<RequestContext> {
  return {
    async unexpectedErrorProcessingRequest({ requestContext, error }) {
      logMasked(error, requestContext.contextValue?.requestId);
    },
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request, schema, contextValue: ctx }) {
          if (!operation) throw badRequest(selectionProblem(document, request.operationName), 'OPERATION_RESOLUTION_FAILURE');
          if (operation.operation === 'subscription') throw badRequest('Subscriptions are not supported: send a query or a mutation', 'BAD_REQUEST');
          const fragments = fragmentsOf(document.definitions);
          const raw = request.variables ?? {};
          const tooLarge = checkInputSizes(schema, operation, fragments, raw);
          if (tooLarge) throw tooLarge;
          // Bad variables are reported by the executor (graphql-js's messages); nothing runs, nothing is charged.
          const variables = getVariableValues(schema, operation.variableDefinitions ?? [], raw, { maxErrors: 1 });
          if (variables.errors) return;
          const max = Math.min(maxCost, limiter.capacity(ctx));
          // Every operation costs at least 1 (a __typename or introspection one too); the context
          // took that 1 when the request arrived, so only the rest is charged here.
          const requested = Math.max(1, operationCost(schema, fragments, variables.coerced, operation));
          const paid = ctx.rate?.cost?.charged ?? 0;
          if (requested > max) {
            // Infinity: an introspection too large to count.
            const known = Number.isFinite(requested);
            ctx.rate = { ...(await limiter.peek(ctx)), cost: { requested: known ? requested : max + 1, charged: paid } };
            const costs = known ? `Operation costs ${requested}, more than` : 'Operation costs more than';
            graphqlCostRefusals.inc();
            throw badRequest(`${costs} the maximum of ${max} per operation: ask for smaller pages or split it (see extensions.cost)`, 'COST_LIMIT_EXCEEDED');
          }
          if (requested <= paid) return;
          ctx.rateCharge = limiter.charge(ctx, requested - paid);
          try {
            await ctx.rateCharge;
          } finally {
            if (ctx.rate) ctx.rate = { ...ctx.rate, cost: { requested, charged: paid + (ctx.rate.cost?.charged ?? 0) } };
          }
        },
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) logMasked(error, contextValue?.requestId, error.path);
        },
        async willSendResponse({ response, errors, contextValue: ctx }) {
          if (!ctx?.viewer) return;
          const rate = ctx.rate ?? (await limiter.peek(ctx));
          response.http.headers.set('X-Ratelimit-Limit', String(rate.limit));
          response.http.headers.set('X-Ratelimit-Remaining', String(rate.remaining));
          response.http.headers.set('X-Ratelimit-Reset', String(rate.reset));
          const limited = errors?.find((e) => (e.originalError as DomainError | undefined)?.code === 'RATE_LIMITED')?.originalError as
            RateLimitedError | undefined;
          // Refused by the bucket (nothing ran), or by a field's own limit (field-rate-limit.ts) with
          // no data to answer: a 429 as v3 answers. A field refused beside answered ones keeps the 200.
          const retryAfter = rate.retryAfter ?? limited?.retryAfterSeconds;
          const noData = response.body.kind !== 'single' || response.body.singleResult.data == null;
          if (limited && retryAfter && noData) {
            response.http.status = 429;
            response.http.headers.set('Retry-After', String(retryAfter));
          }
          // A statement cancelled by statement_timeout: the service is overloaded, not the query wrong.
          if (errors?.some((e) => isStatementTimeout(e.originalError))) response.http.status = 503;
          if (response.body.kind === 'single') {
            const cost = { requested: rate.cost?.requested ?? 0, charged: rate.cost?.charged ?? 0, remaining: rate.remaining };
            response.body.singleResult.extensions = { ...response.body.singleResult.extensions, cost };
          }
        },
      };
    },
  };
}
