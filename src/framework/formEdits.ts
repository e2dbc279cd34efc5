/**
 * What a hand-written form does when the user edits it (issue 37): Refine's unsaved-changes warning is armed
 * (`warnWhenUnsavedChanges`, asked by the app's UnsavedChangesNotifier), and a message on an edited field goes.
 * antd re-validates only fields that have rules, so a server message on a field without one (a credit note's
 * reason) stayed on screen after the user had fixed the field and even after the next save succeeded.
 */
import { useWarnAboutChange } from "@refinedev/core";
import type { FormInstance } from "antd";
import { useEffect, useState } from "react";

/** Did this change (antd's `changedValues`: a partial of the form's values) reach the field at `path`? */
function reaches(changed: unknown, path: readonly (string | number)[]): boolean {
  let at = changed;
  for (const key of path) {
    if (at === null || typeof at !== "object") return true; // a parent value was replaced whole
    if (!(key in at)) return false;
    at = (at as Record<string | number, unknown>)[key];
  }
  return true;
}

/** Clears the messages of the fields a change reached; a field with rules is checked again by antd itself. */
export function clearEditedErrors(form: FormInstance, changed: unknown): void {
  const stale = form.getFieldsError().filter((f) => f.errors.length > 0 && reaches(changed, f.name));
  if (stale.length) form.setFields(stale.map((f) => ({ name: f.name, errors: [] })));
}

/**
 * `onValuesChange` for the form, and `saved(then?)`: the work is kept, so the warning is off; `then` (leaving
 * the page) runs once it is, or Refine would ask "leave?" after a save.
 */
export function useFormEdits(form: FormInstance, { guard = true }: { guard?: boolean } = {}) {
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  const [after, setAfter] = useState<{ then: () => void } | null>(null);
  useEffect(() => {
    if (after && !warnWhen) {
      setAfter(null);
      after.then();
    }
  }, [after, warnWhen]);
  return {
    onValuesChange: (changed: unknown) => {
      if (guard) setWarnWhen(true);
      clearEditedErrors(form, changed);
    },
    saved: (then?: () => void) => {
      setWarnWhen(false);
      if (then) setAfter({ then });
    },
  };
}
