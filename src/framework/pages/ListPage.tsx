/** The generated list page of a resource. */
import type { Resource } from "../types.ts";
import { ListView } from "./ListView.tsx";

export default function ListPage({ resource }: { resource: Resource }) {
  return <ListView resource={resource} />;
}
