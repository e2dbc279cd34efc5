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
  resourcePages?: (resources: unknown) => { path: string; element: ReactElement; preload?: () => Promise<unknown> }[];
  refineResources?: (resources: unknown) => ResourceProps[];
}

const frameworks = import.meta.glob<FrameworkModule>("../framework/index.ts", { eager: true });
const registries = import.meta.glob<{ resources?: unknown }>("../../resources/index.ts", { eager: true });

const framework: FrameworkModule | undefined = Object.values(frameworks)[0];
const resources: unknown = Object.values(registries)[0]?.resources;

const routePages = framework?.resourcePages && resources !== undefined ? framework.resourcePages(resources) : [];

export const pageByShape: ReadonlyMap<string, ReactElement> = new Map(routePages.map((p) => [routeShape(p.path), p.element]));

const preloadByShape = new Map(routePages.flatMap((p) => (p.preload ? [[routeShape(p.path), p.preload] as const] : [])));

export const refineResourceList: ResourceProps[] =
  framework?.refineResources && resources !== undefined ? framework.refineResources(resources) : [];

export function pageFor(path: string): ReactElement | undefined {
  return pageByShape.get(routeShape(path));
}

/** Starts downloading the page of `path` (its chunk and theirs), when the page has a known loader. */
export function preloadPageFor(path: string): void {
  preloadByShape.get(routeShape(path))?.().catch(() => undefined); // a failure is the page's own load to handle
}
