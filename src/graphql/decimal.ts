import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/** Longest decimal text accepted on input (the core checks the digits a column holds). */
const MAX_DECIMAL_TEXT = 64;

function accept(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.length <= MAX_DECIMAL_TEXT) return value;
  throw new GraphQLError(
    `Decimal cannot represent ${typeof value === 'string' ? 'a text this long' : JSON.stringify(value)}: send a decimal number or a string such as "5000.00"`,
  );
}

/**
 * An exact decimal, shown as a string ("5000.00", money in the account currency's places) so no
 * client reads it through a float; accepted as a string or a number. Services parse its text.
 */
export const GraphQLDecimal = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'An exact decimal number, shown as a string such as "5000.00" (money: the account currency\'s places); input as a string or a number.',
  serialize: (value) => String(value),
  parseValue: accept,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT || ast.kind === Kind.STRING) return accept(ast.value);
    throw new GraphQLError('Decimal must be a number or a string such as "5000.00"', { nodes: ast });
  },
});
