/** The schema-driven resource framework: declare an entity once, get its list, create, edit and show pages. */
export { defineResource, humanize, fillRoute, routeParams, ResourceDeclarationError, listFields, filterFields, formFields, showFields } from "./defineResource.ts";
export * as field from "./fields.ts";
export { resourcePages, refineResources, lazyPage, type ResourceRoute } from "./routes.tsx";
export { registerResources, findResource, getResource } from "./registry.ts";
export { configureFramework, type FrameworkConfig } from "./media.ts";
export { listSelection, showSelection, formSelection, allColumns } from "./selection.ts";
export { RICH_TEXT_FONTS, RICH_TEXT_PALETTE } from "./richText.ts";
export type { Field, FieldKind, Resource, ResourceDeclaration, ResolvedField, PageKind } from "./types.ts";
