/**
 * graphql's printer and parser alone, loaded on demand by the GraphQL client (graphql.ts) and the live provider
 * when a page hands them a parsed document (or a text document whose fields must be read): pages whose queries
 * are text never download them.
 */
export { parse, print } from "graphql";
