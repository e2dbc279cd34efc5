/// <reference types="vite/client" />
/**
 * The pages the resource framework provides (src/framework `resourcePages(resources)`), keyed by route
 * shape, and its Refine resource entries. Loaded through import.meta.glob so the shell builds and runs
 * before (or without) the framework: a route with no page shows the not-found screen, never a fake page.
 */
import type { ReactElement } from "react";
import type { ResourceProps } from "@refinedev/core";
import { routeShape } from "./routes.ts";

interface FrameworkModule {
  resourcePages?: (resources: unknown) => { path: string; element: ReactElement }[];
  refineResources?: (resources: unknown) => ResourceProps[];
}

const frameworks = import.meta.glob<FrameworkModule>("../framework/index.ts", { eager: true });
const registries = import.meta.glob<{ resources?: unknown }>("../../resources/index.ts", { eager: true });

const framework: FrameworkModule | undefined = Object.values(frameworks)[0];
const resources: unknown = Object.values(registries)[0]?.resources;

function loadPages(): Map<string, ReactElement> {
  const pages = new Map<string, ReactElement>();
  if (!framework?.resourcePages || resources === undefined) return pages;
  for (const p of framework.resourcePages(resources)) pages.set(routeShape(p.path), p.element);
  return pages;
}

export const pageByShape: ReadonlyMap<string, ReactElement> = loadPages();

export const refineResourceList: ResourceProps[] =
  framework?.refineResources && resources !== undefined ? framework.refineResources(resources) : [];

export function pageFor(path: string): ReactElement | undefined {
  return pageByShape.get(routeShape(path));
}
