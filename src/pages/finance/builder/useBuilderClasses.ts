/**
 * The classes on the builder's cards, loaded once per class (GraphQL + GET /classes/class-free); special
 * classes are asked for after a 1 s delay (spec part 2 §9). Errors of the class-information calls show
 * as an error toast (§8).
 */
import { toast } from "../../../framework/toast.ts";
import { useEffect, useRef, useState } from "react";
import { rejectionMessage } from "../../../app/api.ts";
import { fetchCardClass, type CardClass } from "./builderData.ts";

export const SPECIAL_CLASS_DELAY_MS = 1000;

export function useBuilderClasses(studentId: string | null, classIds: readonly string[], specialIds: ReadonlySet<string>) {
  const [classes, setClasses] = useState<ReadonlyMap<string, CardClass>>(new Map());
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const asked = useRef(new Set<string>());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const key = classIds.join(",");
  useEffect(() => {
    if (!studentId) return;
    for (const id of classIds) {
      if (asked.current.has(id)) continue;
      asked.current.add(id);
      const load = () =>
        fetchCardClass(studentId, id, null).then(
          (c) => setClasses((m) => new Map(m).set(id, c)),
          (err: unknown) => {
            const text = rejectionMessage(err, "The class information could not be loaded.");
            void toast.error(text);
            setErrors((m) => new Map(m).set(id, text));
            asked.current.delete(id);
          },
        );
      if (specialIds.has(id)) {
        const t = setTimeout(() => {
          timers.current.delete(t);
          void load();
        }, SPECIAL_CLASS_DELAY_MS);
        timers.current.add(t);
      } else void load();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [studentId, key]);
  return { classes, errors };
}
