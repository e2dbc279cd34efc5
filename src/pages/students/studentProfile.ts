/**
 * The student profile as the pages hold it: the GraphQL selection they read, the form values of each
 * wizard step, the REST bodies of the student-profile calls, and the server's field errors mapped back
 * onto the form (its paths "parents.0.phone.number" → the form's ["parents", 0, "phone"]).
 */
import type { Dayjs } from "dayjs";
import { DATE_FORMAT, dayjs } from "../../domain/dates.ts";
import type { Phone } from "../../framework/inputs/PhoneInput.tsx";

export interface ParentValues {
  relationship?: string;
  email?: string | null;
  firstName?: string;
  lastName?: string | null;
  occupation?: string | null;
  phone?: Phone | null;
  primaryContact?: boolean;
  isEmergencyContact?: boolean;
}

export interface ContactValues {
  firstName?: string;
  lastName?: string | null;
  phone?: Phone | null;
}

export interface AccountValues {
  avatarUrl?: string | null;
  firstName?: string;
  lastName?: string;
  username?: string;
  email?: string | null;
  phone?: Phone | null;
  dob?: Dayjs | null;
  gender?: string | null;
  branchId?: string | null;
  address?: string | null;
}

export interface FamilyValues {
  parents?: ParentValues[];
  siblings?: string[];
  emergencyContact?: ContactValues;
}

export interface StudentInfoValues {
  schoolId?: string | null;
  curriculumId?: string | null;
  levelId?: string | null;
  subscribe?: boolean;
  payOnline?: boolean;
  references?: { name?: string | null; discountCode?: string }[];
}

/** What the wizard and the edit page read of a student. */
export const PROFILE_FIELDS = [
  "id", "username", "firstName", "lastName", "fullName", "email", "phone", "dob", "gender", "address", "avatarUrl", "status", "type",
  "branchId", "parents", "siblings", "emergencyContact", "schoolId", "curriculumId", "levelId", "subscribe", "payOnline", "references", "currentStep",
];

export type ProfileRecord = Record<string, unknown> & { id: string; status?: string; currentStep?: number | null };

const blankPhone = (p: Phone | null | undefined) => (p?.number ? { code: p.code || "+65", number: p.number } : null);
const orNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

export const NEW_PARENT: ParentValues = { relationship: "father", phone: { code: "+65", number: "" }, primaryContact: true, isEmergencyContact: true };

export function accountValues(p: ProfileRecord | undefined): AccountValues {
  if (!p) return { phone: { code: "+65", number: "" } };
  return {
    avatarUrl: (p.avatarUrl as string | null) ?? null,
    firstName: (p.firstName as string) ?? "",
    lastName: (p.lastName as string) ?? "",
    username: p.username as string,
    email: (p.email as string | null) ?? "",
    phone: (p.phone as Phone | null) ?? { code: "+65", number: "" },
    dob: p.dob ? dayjs(String(p.dob).slice(0, 10), DATE_FORMAT) : null,
    gender: (p.gender as string | null) ?? null,
    branchId: (p.branchId as string | null) ?? null,
    address: (p.address as string | null) ?? null,
  };
}

export function accountBody(v: AccountValues): Record<string, unknown> {
  return {
    firstName: v.firstName?.trim(),
    lastName: v.lastName?.trim(),
    username: v.username?.trim(),
    email: orNull(v.email),
    phone: blankPhone(v.phone),
    dob: v.dob ? v.dob.format(DATE_FORMAT) : null,
    gender: v.gender ?? null,
    branchId: v.branchId,
    address: orNull(v.address),
  };
}

export function familyValues(p: ProfileRecord | undefined): FamilyValues {
  const parents = (p?.parents as ParentValues[] | undefined) ?? [];
  return {
    parents: parents.length ? parents : [NEW_PARENT],
    siblings: ((p?.siblings as { id: string }[] | undefined) ?? []).map((s) => s.id),
    emergencyContact: (p?.emergencyContact as ContactValues | undefined) ?? { phone: { code: "+65", number: "" } },
  };
}

/** The family step's body; an emergency contact left blank is the parent marked as the emergency contact. */
export function familyBody(v: FamilyValues): Record<string, unknown> {
  const parents = (v.parents ?? []).map((p) => ({
    relationship: p.relationship,
    email: orNull(p.email),
    firstName: p.firstName?.trim(),
    lastName: orNull(p.lastName),
    occupation: orNull(p.occupation),
    phone: blankPhone(p.phone) ?? { code: p.phone?.code || "+65", number: "" },
    primaryContact: Boolean(p.primaryContact),
    isEmergencyContact: Boolean(p.isEmergencyContact),
  }));
  const typed = v.emergencyContact;
  const fromParent = parents.find((p) => p.isEmergencyContact);
  const emergencyContact = typed?.firstName?.trim()
    ? { firstName: typed.firstName.trim(), lastName: orNull(typed.lastName), phone: blankPhone(typed.phone) ?? { code: "+65", number: "" } }
    : fromParent
      ? { firstName: fromParent.firstName, lastName: fromParent.lastName, phone: fromParent.phone }
      : { firstName: "", lastName: null, phone: { code: "+65", number: "" } };
  return { parents, siblings: v.siblings ?? [], emergencyContact };
}

export function studentInfoValues(p: ProfileRecord | undefined): StudentInfoValues {
  return {
    schoolId: (p?.schoolId as string | null) ?? null,
    curriculumId: (p?.curriculumId as string | null) ?? null,
    levelId: (p?.levelId as string | null) ?? null,
    subscribe: (p?.subscribe as boolean | undefined) ?? true,
    payOnline: (p?.payOnline as boolean | undefined) ?? false,
    references: (p?.references as StudentInfoValues["references"]) ?? [],
  };
}

export function studentInfoBody(v: StudentInfoValues): Record<string, unknown> {
  return {
    schoolId: v.schoolId,
    curriculumId: v.curriculumId,
    levelId: v.levelId,
    subscribe: v.subscribe ?? true,
    payOnline: v.payOnline ?? false,
    references: (v.references ?? []).map((r) => ({ name: orNull(r.name), discountCode: r.discountCode?.trim() })),
  };
}

/** The server's {errors} as antd setFields entries; a phone's code/number lands on its phone input. */
export function serverFieldErrors(err: unknown): { name: (string | number)[]; errors: string[] }[] {
  const errors = (err as { errors?: Record<string, string> } | null)?.errors ?? {};
  return Object.entries(errors)
    .filter(([path]) => path !== "body" && path !== "id")
    .map(([path, message]) => {
      const parts = path.split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      if (parts.length > 1 && parts[parts.length - 2] === "phone") parts.pop();
      return { name: parts, errors: [message] };
    });
}
