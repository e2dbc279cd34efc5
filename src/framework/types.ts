/**
 * What a resource file declares (DESIGN §7): an entity's table, routes, label, menu place and fields.
 * Everything optional has a working default, so `{ table, label, routes, fields }` already gets pages.
 */
import type { ComponentType, LazyExoticComponent } from "react";
import type { CrudFilter } from "@refinedev/core";
import type { Validator } from "../domain/validators.ts";

export type FieldKind =
  | "text"
  | "longText"
  | "richText"
  | "number"
  | "money"
  | "date"
  | "time"
  | "dateTime"
  | "enum"
  | "boolean"
  | "relation"
  | "image"
  | "file"
  | "files"
  | "phone"
  | "email"
  | "amountRows";

/** Where a field appears. Defaults depend on the kind (see `kinds.tsx`). */
export interface FieldPlacement {
  /** A column of the generated list. */
  list?: boolean;
  /** A filter above the generated list. */
  filter?: boolean;
  /** An input of the generated create/edit form; "create" or "edit" limits it to one of them. */
  form?: boolean | "create" | "edit";
  /** A row of the generated show page. */
  show?: boolean;
  /** The list column can be sorted (server side). */
  sortable?: boolean;
}

export interface FieldOptions extends FieldPlacement {
  /** Shown above the input, as the column title and in the show page. Defaults to the humanised name. */
  label?: string;
  /** Required in forms; a string is the message (default "Please input {label}!"). */
  required?: boolean | string;
  /** Rules from src/domain/validators, run in order; the first failing message shows under the field. */
  rules?: readonly Validator[];
  /** Shown but not editable in the edit form. */
  readOnly?: boolean;
  placeholder?: string;
  /** Value of a new record's input. */
  defaultValue?: unknown;
  /**
   * A new record's value taken from this parameter of the create route
   * (`/finance/payment-discount/create/:order` → `{ fromParam: "order" }`); numbers for number kinds.
   */
  fromParam?: string;
  /** A date (or date-time) that may not be before this other field of the form (an end after its start). */
  notBefore?: string;
  /** Short help under the input. */
  help?: string;
  /** What a text field reads as when empty, in lists and exports (a draft's number: "Draft"). */
  whenEmpty?: string;
}

export interface PlainField extends FieldOptions {
  kind: "text" | "longText" | "richText" | "money" | "date" | "time" | "dateTime" | "boolean" | "phone" | "email" | "amountRows";
}

export interface NumberField extends FieldOptions {
  kind: "number";
  min?: number;
  max?: number;
  /** Whole numbers only (default true). */
  integer?: boolean;
  /**
   * The field of the same record holding this number's unit, "amount" (S$) or "percent": the number is
   * shown as 'S$20.00' or '10%' (a discount's amount and unit).
   */
  unitField?: string;
}

export interface EnumField extends FieldOptions {
  kind: "enum";
  /** Stored value → display label, in display order. */
  values: Readonly<Record<string, string>>;
  /** Stored value → the pill's colour (an antd Tag colour), for statuses with the spec's colours. */
  colours?: Readonly<Record<string, string>>;
}

export interface RelationField extends FieldOptions {
  kind: "relation";
  /** The target resource's table. */
  target: string;
  /** The target's field shown as the option and cell label (default: the target's recordLabel, else "name"). */
  labelField?: string;
  /** Many ids (a jsonb array column) instead of one. */
  many?: boolean;
  /**
   * Offers only the target rows matching this Hasura boolean expression (tutors only, students only),
   * in forms and filters: `{ multipleRoles: { _has_keys_any: ["fulltime_tutor", "parttime_tutor"] } }`.
   */
  where?: Readonly<Record<string, unknown>>;
}

export interface MediaField extends FieldOptions {
  /** "files": several files in a jsonb list of { name, url } (url = the stored object's public URL). */
  kind: "image" | "file" | "files";
  /** Folder of the media key (default: the table name). */
  folder?: string;
}

export type Field = PlainField | NumberField | EnumField | RelationField | MediaField;

export type PageKind = "list" | "create" | "edit" | "show";

/** A hand-written page replacing a generated one (it receives its resource as a prop). */
export type PageComponent = ComponentType<{ resource?: Resource }> | LazyExoticComponent<ComponentType<{ resource?: Resource }>>;

export interface ResourceDeclaration<F extends Record<string, Field> = Record<string, Field>> {
  /** The table (the data calls' resource and the access-policy object). */
  table: string;
  /**
   * The Refine identifier when several resources share one table (students and staff over users); default the
   * table. The first resource declared for a table stays the one relations and inlines find.
   */
  name?: string;
  /** Plural label: menu entry, list title. */
  label: string;
  /** Singular label: "Create {singular}", "Edit {singular}". Defaults to the label. */
  singular?: string;
  /** Menu icon (an @ant-design/icons component). */
  icon?: ComponentType;
  /** Menu group (the parent menu entry's key); top level when absent; null hides it from the menu. */
  menu?: string | null;
  /**
   * The spec's paths. The record id's parameter is the one `:param` of the edit/show path that is not
   * the parent's. A page without a route is not served.
   */
  routes: Partial<Record<PageKind, string>>;
  fields: F;
  /** The field naming a record (titles, relation labels). Default "name" when declared, else "id". */
  recordLabel?: string;
  /** Default sort of the list (spec: updatedAt descending). */
  defaultSort?: { field: string; order: "asc" | "desc" };
  /** Delete marks status = 'deleted' and lists exclude such rows. Default false. */
  softDelete?: boolean;
  /** Offer delete (soft or hard) on the list and show pages. Default true. */
  deletable?: boolean;
  /** A child of another resource: its routes carry the parent's id param, its rows the parent's id. */
  parent?: { table: string; field: string; param: string };
  /**
   * Route parameters filled from the record's own columns, parameter → column: the spec's invoice page
   * /finance/invoice/{id}/{invoiceId} carries the invoice's payment advice as `id` ({ id: "paymentAdviceId" }).
   */
  routeFields?: Readonly<Record<string, string>>;
  /** Child resources listed on the show page (like Django admin inlines), by table. */
  inlines?: readonly string[];
  /** Hand-written pages replacing generated ones. */
  pages?: Partial<Record<PageKind, PageComponent>>;
  /**
   * Hand-written pages at further spec paths of the entity, path → page: a second path of its list
   * (/finance beside /finance/payment-advice), a printable paper, a log history page.
   */
  morePages?: Readonly<Record<string, PageComponent>>;
  /** Filters always applied to the list (besides soft deletion). */
  permanentFilters?: readonly CrudFilter[];
  /** Generated list offers CSV export (default true). */
  exportable?: boolean;
  /**
   * A create-route parameter the list fills with its record count plus one — the next number in order
   * (`/finance/payment-discount/create/:order`); the form takes it through the field's `fromParam`.
   */
  nextNumberParam?: string;
  /** A data-heavy list: the table's dense (small) size, more rows on screen. */
  dense?: boolean;
  /**
   * Create and/or edit in a dialog over the list instead of a page of their own — for screens whose
   * forms the spec gives no route (programme types on /programme/categories-type, editing a discount).
   */
  dialogs?: readonly ("create" | "edit")[];
  /**
   * Saves through the spec's REST calls instead of GraphQL, paths under /api/v2 (`:id` is the record's id):
   * `{ create: "/companies", update: "/companies/:id" }`. Reading stays on GraphQL.
   */
  restWrites?: RestWrites;
}

export interface RestWrites {
  create?: string;
  update?: string;
}

/** A declaration with every default filled in; what the pages read. */
export interface Resource extends ResourceDeclaration {
  name: string;
  singular: string;
  recordLabel: string;
  defaultSort: { field: string; order: "asc" | "desc" };
  softDelete: boolean;
  deletable: boolean;
  exportable: boolean;
  /** The record id parameter of the edit and show routes ("companyId", "branchId", "id"). */
  idParams: { edit?: string; show?: string };
  /** Fields with their names and resolved placement. */
  fieldList: readonly ResolvedField[];
}

export type ResolvedField = Field & {
  name: string;
  label: string;
  list: boolean;
  filter: boolean;
  form: boolean | "create" | "edit";
  show: boolean;
  sortable: boolean;
};
