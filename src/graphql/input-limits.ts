import {
  GraphQLError,
  Kind,
  TypeInfo,
  getNullableType,
  isInputObjectType,
  isListType,
  isScalarType,
  isSpecifiedScalarType,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValueNode,
  type VariableDefinitionNode,
} from 'graphql';
import { MAX_FILTER_STRING, MAX_INPUT_DEPTH, MAX_INPUT_STRING, MAX_JSON_DEPTH, MAX_JSON_ENTRIES } from './limits';

export interface InputLimits {
  /** Characters of a string anywhere inside a `*Filter` input. */
  readonly filterString: number;
  /** Characters of any other string input. */
  readonly string: number;
  /** Levels of input objects and lists in one argument (the argument's own value is level 1). */
  readonly inputDepth: number;
  /** Nesting levels of a JSON / JSONObject (any custom scalar given an object or list) value. */
  readonly jsonDepth: number;
  /** Keys and items of such a value, all levels together. */
  readonly jsonEntries: number;
}

export const INPUT_LIMITS: InputLimits = {
  filterString: MAX_FILTER_STRING,
  string: MAX_INPUT_STRING,
  inputDepth: MAX_INPUT_DEPTH,
  jsonDepth: MAX_JSON_DEPTH,
  jsonEntries: MAX_JSON_ENTRIES,
};

/** A filter input type: everything under it is a search condition (the v3 facade caps those at 200). */
const isFilterType = (type: GraphQLInputType): boolean => isInputObjectType(type) && type.name.endsWith('Filter');

/** Code points of `s`, counted only as far as needed to compare with `max`. */
function longerThan(s: string, max: number): boolean {
  if (s.length <= max) return false;
  if (s.length > 2 * max) return true;
  let n = 0;
  for (const _ of s) if (++n > max) return true;
  return false;
}

class InputTooLarge extends Error {}

/**
 * Checks every argument of the operation (inline literals and variables alike, and variable
 * defaults) against its input type, before anything runs: input objects and lists at most
 * `inputDepth` levels deep, strings in filters at most `filterString` characters, other strings
 * at most `string`, JSON values at most `jsonDepth` levels deep with at most `jsonEntries` keys
 * and items. Returns a client error naming the argument's path (`people.filter.name`) and the
 * limit, or null. Raw variables are walked as sent (coercion comes later), so a badly typed value
 * is left for coercion to report.
 *
 * This is the first code to walk a variable (graphql-js coercion, the executor and the cost run
 * after it), and every walk here stops at the first excess, so its recursion is bounded by the
 * limits (about `inputDepth` + `jsonDepth` frames) whatever the client sends.
 */
export function checkInputSizes(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Readonly<Record<string, unknown>>,
  limits: InputLimits = INPUT_LIMITS,
): GraphQLError | null {
  const definitions = new Map<string, VariableDefinitionNode>((operation.variableDefinitions ?? []).map((d) => [d.variable.name.value, d]));

  const tooLong = (path: string, length: number, inFilter: boolean, via: string): never => {
    const max = inFilter ? limits.filterString : limits.string;
    throw new InputTooLarge(`Input ${path}${via} is too long: ${length} characters, at most ${max} are allowed${inFilter ? ' in a filter' : ''}`);
  };
  const string = (s: string, path: string, inFilter: boolean, via: string) => {
    if (longerThan(s, inFilter ? limits.filterString : limits.string)) tooLong(path, [...s].length, inFilter, via);
  };
  /** Entering an input object or list at `depth` (1 for the argument's own value): refused past the limit, before descending. */
  const level = (depth: number, path: string, via: string) => {
    if (depth > limits.inputDepth)
      throw new InputTooLarge(`Input ${path}${via} is nested too deeply: more than ${limits.inputDepth} levels of input objects and lists`);
  };

  /** A JSON value given as a literal or as raw JSON; both walks stop at the first excess, so recursion stays shallow. */
  const json = (path: string, via: string) => {
    let entries = 0;
    const enter = (depth: number) => {
      if (depth > limits.jsonDepth) throw new InputTooLarge(`Input ${path}${via} is nested too deeply: more than ${limits.jsonDepth} levels`);
    };
    const count = (n: number) => {
      entries += n;
      if (entries > limits.jsonEntries) throw new InputTooLarge(`Input ${path}${via} is too large: more than ${limits.jsonEntries} keys and items`);
    };
    const literal = (node: ValueNode, depth: number): void => {
      if (node.kind === Kind.OBJECT) {
        enter(depth);
        count(node.fields.length);
        for (const f of node.fields) literal(f.value, depth + 1);
      } else if (node.kind === Kind.LIST) {
        enter(depth);
        count(node.values.length);
        for (const v of node.values) literal(v, depth + 1);
      } else if (node.kind === Kind.STRING) {
        string(node.value, path, false, via);
      } else if (node.kind === Kind.VARIABLE) {
        variable(node.name.value, (v) => raw(v, depth));
      }
    };
    const raw = (value: unknown, depth: number): void => {
      if (typeof value === 'string') string(value, path, false, via);
      else if (Array.isArray(value)) {
        enter(depth);
        count(value.length);
        for (const v of value) raw(v, depth + 1);
      } else if (value !== null && typeof value === 'object') {
        enter(depth);
        const values = Object.values(value);
        count(values.length);
        for (const v of values) raw(v, depth + 1);
      }
    };
    return { literal: (node: ValueNode) => literal(node, 1), raw: (value: unknown) => raw(value, 1) };
  };

  /** The variable's value as sent, else its default (a literal). */
  const variable = (name: string, onRaw: (value: unknown) => void, onDefault?: (node: ValueNode) => void) => {
    if (Object.prototype.hasOwnProperty.call(variables, name)) onRaw(variables[name]);
    else {
      const fallback = definitions.get(name)?.defaultValue;
      if (fallback) (onDefault ?? (() => undefined))(fallback);
    }
  };

  /** `depth`: input objects and lists entered above `node` (a variable's value continues the count). */
  const checkLiteral = (node: ValueNode, type: GraphQLInputType, path: string, inFilter: boolean, via: string, depth: number): void => {
    if (node.kind === Kind.VARIABLE) {
      const name = node.name.value;
      const label = ` (variable $${name})`;
      variable(
        name,
        (value) => checkRaw(value, type, path, inFilter, label, depth),
        (fallback) => checkLiteral(fallback, type, path, inFilter, label, depth),
      );
      return;
    }
    if (node.kind === Kind.NULL) return;
    const inner = getNullableType(type) as GraphQLInputType;
    if (isListType(inner)) {
      if (node.kind === Kind.LIST) {
        level(depth + 1, path, via);
        node.values.forEach((v, i) => checkLiteral(v, inner.ofType, `${path}[${i}]`, inFilter, via, depth + 1));
      } else checkLiteral(node, inner.ofType, path, inFilter, via, depth);
    } else if (isInputObjectType(inner)) {
      if (node.kind !== Kind.OBJECT) return;
      level(depth + 1, path, via);
      const fields = inner.getFields();
      const filter = inFilter || isFilterType(inner);
      for (const f of node.fields) {
        const def = fields[f.name.value];
        if (def) checkLiteral(f.value, def.type, `${path}.${f.name.value}`, filter, via, depth + 1);
      }
    } else if (isScalarType(inner) && !isSpecifiedScalarType(inner)) {
      if (node.kind === Kind.STRING) string(node.value, path, inFilter, via);
      else json(path, via).literal(node);
    } else if (node.kind === Kind.STRING) {
      string(node.value, path, inFilter, via);
    }
  };

  const checkRaw = (value: unknown, type: GraphQLInputType, path: string, inFilter: boolean, via: string, depth: number): void => {
    if (value === null || value === undefined) return;
    const inner = getNullableType(type) as GraphQLInputType;
    if (isListType(inner)) {
      if (Array.isArray(value)) {
        level(depth + 1, path, via);
        value.forEach((v, i) => checkRaw(v, inner.ofType, `${path}[${i}]`, inFilter, via, depth + 1));
      } else checkRaw(value, inner.ofType, path, inFilter, via, depth);
    } else if (isInputObjectType(inner)) {
      // A list where an object is expected is left to coercion, unwalked.
      if (typeof value !== 'object' || Array.isArray(value)) return;
      level(depth + 1, path, via);
      const fields = inner.getFields();
      const filter = inFilter || isFilterType(inner);
      for (const [key, v] of Object.entries(value)) {
        const def = fields[key];
        if (def) checkRaw(v, def.type, `${path}.${key}`, filter, via, depth + 1);
      }
    } else if (isScalarType(inner) && !isSpecifiedScalarType(inner)) {
      if (typeof value === 'string') string(value, path, inFilter, via);
      else json(path, via).raw(value);
    } else if (typeof value === 'string') {
      string(value, path, inFilter, via);
    }
  };

  const reached = new Set<string>();
  const pending: ASTNode[] = [operation];
  const typeInfo = new TypeInfo(schema);
  const fieldPath: string[] = [];
  try {
    while (pending.length > 0) {
      const node = pending.pop() as ASTNode;
      fieldPath.length = 0;
      if (node.kind === Kind.FRAGMENT_DEFINITION) fieldPath.push(`...${node.name.value}`);
      visit(
        node,
        visitWithTypeInfo(typeInfo, {
          Field: { enter: (f) => void fieldPath.push(f.name.value), leave: () => void fieldPath.pop() },
          FragmentSpread(spread) {
            const fragment = fragments[spread.name.value];
            if (fragment && !reached.has(spread.name.value)) {
              reached.add(spread.name.value);
              pending.push(fragment);
            }
          },
          Directive: () => false, // @skip / @include take a Boolean
          Argument(arg) {
            const def = typeInfo.getArgument();
            if (def) checkLiteral(arg.value, def.type, `${fieldPath.join('.')}.${arg.name.value}`, false, '', 0);
            return false;
          },
        }),
      );
    }
  } catch (error) {
    if (error instanceof InputTooLarge) return new GraphQLError(error.message, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
    throw error;
  }
  return null;
}
