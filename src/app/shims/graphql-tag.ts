/**
 * Stands in for `graphql-tag` in the browser build (vite.config.ts): @refinedev/hasura writes its createMany,
 * updateMany, deleteMany (and getOne-through-a-mutation) queries with it and hands them straight to
 * graphql-request, which sends query text as readily as a parsed document. So the text goes as written, and
 * graphql's parser (~12 kB compressed) stays out of every page; the pages that parse queries load it themselves.
 */
export default function gql(literals: string | readonly string[], ...values: unknown[]): string {
  const parts = typeof literals === "string" ? [literals] : literals;
  return values.reduce<string>((text, value, i) => text + String(value) + parts[i + 1], parts[0]!);
}
