/**
 * What the app shell mounts: one route per spec path a resource serves (each page a lazy chunk), and
 * Refine's `resources` entries (menu, breadcrumbs, access control names).
 */
import { Suspense, createElement, lazy, type ComponentType, type ReactElement } from "react";
import { Spin } from "antd";
import type { ResourceProps } from "@refinedev/core";
import type { PageKind, Resource } from "./types.ts";
import { registerResources } from "./registry.ts";

/** A page's chunk loader, started ahead of the page's first render (`preloadOf`). */
export type PagePreload = () => Promise<unknown>;

/**
 * A lazy chunk that reloads the page once when it fails to load (a new deployment replaced it); `preload`
 * starts its download before it renders (the app shell starts the opened route's page beside its own code).
 */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  const page = lazy(() =>
    load().catch((error: unknown) => {
      const key = "framework-chunk-reload";
      if (typeof window !== "undefined" && !sessionStorage.getItem(key)) {
        sessionStorage.setItem(key, "1");
        window.location.reload();
        return new Promise<never>(() => undefined);
      }
      throw error;
    }),
  );
  return Object.assign(page, { preload: load as PagePreload });
}

/** The chunk loader of a page made with `lazyPage`, if it has one. */
function preloadOf(page: unknown): PagePreload | undefined {
  return (page as { preload?: PagePreload } | undefined)?.preload;
}

const GeneratedList = lazyPage(() => import("./pages/ListPage.tsx"));
const GeneratedForm = lazyPage(() => import("./pages/FormPage.tsx"));
const GeneratedShow = lazyPage(() => import("./pages/ShowPage.tsx"));
const GENERATED: Record<PageKind, { preload: PagePreload }> = { list: GeneratedList, create: GeneratedForm, edit: GeneratedForm, show: GeneratedShow };

const spinner = <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;

function pageElement(resource: Resource, kind: PageKind): ReactElement {
  const custom = resource.pages?.[kind];
  const page = custom
    ? createElement(custom, { resource })
    : kind === "list"
      ? <GeneratedList resource={resource} />
      : kind === "show"
        ? <GeneratedShow resource={resource} />
        : <GeneratedForm resource={resource} action={kind} />;
  return <Suspense fallback={spinner}>{page}</Suspense>;
}

const PAGE_KINDS: readonly PageKind[] = ["list", "create", "edit", "show"];

export interface ResourceRoute {
  path: string;
  element: ReactElement;
  resource: string;
  /** The generated page kind, or "more" for a page of `morePages`. */
  page: PageKind | "more";
  /** Starts the page's chunk download: generated pages and hand-written ones made with `lazyPage`. */
  preload?: PagePreload;
}

/** One route per path the resources serve, their `morePages` included. */
export function resourcePages(resources: readonly Resource[]): ResourceRoute[] {
  registerResources(resources);
  return resources.flatMap((r) => [
    ...PAGE_KINDS.filter((k) => r.routes[k]).map((k) => ({
      path: r.routes[k]!,
      element: pageElement(r, k),
      resource: r.table,
      page: k,
      preload: r.pages?.[k] ? preloadOf(r.pages[k]) : GENERATED[k].preload,
    })),
    ...Object.entries(r.morePages ?? {}).map(([path, page]) => ({
      path,
      element: <Suspense fallback={spinner}>{createElement(page, { resource: r })}</Suspense>,
      resource: r.table,
      page: "more" as const,
      preload: preloadOf(page),
    })),
  ]);
}

/** Refine's resources: the record id parameter is named `:id` as Refine expects; the pattern is the spec's. */
export function refineResources(resources: readonly Resource[]): ResourceProps[] {
  registerResources(resources);
  return resources.map((r) => {
    const path = (k: PageKind) => {
      const param = k === "edit" || k === "show" ? r.idParams[k] : undefined;
      return param ? r.routes[k]?.replace(new RegExp(`:${param}\\b`), ":id") : r.routes[k];
    };
    return {
      name: r.table,
      identifier: r.name,
      list: path("list"),
      create: path("create"),
      edit: path("edit"),
      show: path("show"),
      meta: {
        label: r.label,
        icon: r.icon ? createElement(r.icon) : undefined,
        parent: r.menu ?? undefined,
        hide: r.menu === null || !r.routes.list,
        canDelete: r.deletable,
        table: r.table,
      },
    };
  });
}
