import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLScalarType, GraphQLString, valueFromASTUntyped } from "graphql";

const builtIn: Record<string, GraphQLScalarType> = { Int: GraphQLInt, Float: GraphQLFloat, String: GraphQLString, Boolean: GraphQLBoolean };

/** Hasura's Postgres scalars (uuid, timestamptz, numeric, bigint, jsonb…): values pass through to Postgres, which checks them. */
export function scalarRegistry(): (name: string) => GraphQLScalarType {
  const made = new Map<string, GraphQLScalarType>();
  return (name) => {
    if (builtIn[name]) return builtIn[name];
    let s = made.get(name);
    if (!s) {
      s = new GraphQLScalarType({
        name,
        serialize: (v) => v,
        parseValue: (v) => v,
        parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
      });
      made.set(name, s);
    }
    return s;
  };
}
