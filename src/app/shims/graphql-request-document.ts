/**
 * Stands in for graphql-request's resolveRequestDocument in the browser build (vite.config.ts). The original
 * parses every query given as text only to name its operation in the request; a document of one operation needs
 * no name (the server runs its only operation), so text goes as it is and graphql's parser stays out of every
 * page. A parsed document (a page's own query) is printed, and named, as the original does.
 */
import { print, type DocumentNode, type OperationDefinitionNode } from "graphql";

export function resolveRequestDocument(document: string | DocumentNode): { query: string; operationName?: string } {
  if (typeof document === "string") return { query: document };
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === "OperationDefinition");
  return { query: print(document), operationName: operations.length === 1 ? operations[0]!.name?.value : undefined };
}
