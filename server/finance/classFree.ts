/**
 * GET /classes/class-free (spec part 1 §7, issue 13 §4): a class priced for a student from a lesson start
 * date — what the PA builder shows on a class card before the user picks terms. Computed with the same
 * src/domain/finance functions as the PA itself.
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric } from "../../src/domain/money.ts";
import { billedLessons, isTermless, isTermSelectable } from "../../src/domain/finance/classCard.ts";
import type { ClassFreeReply, ClassFreeTerm } from "../../src/domain/finance/paymentAdviceApi.ts";
import { loadClasses, studentType } from "./pricing.ts";
import { FinanceError } from "./transaction.ts";

export async function classFree(db: Queryable, input: { studentId: string; classId: string; lessonStartDate: string | null }): Promise<ClassFreeReply> {
  const { rows: students } = await db.query(`select 1 from users where id = $1 and type = 'student' and status <> 'deleted'`, [input.studentId]);
  if (!students.length) throw new FinanceError(404, "Student not found.", { studentId: "Please select student!" });
  const classes = await loadClasses(db, [input.classId], await studentType(db, input.studentId));
  const cls = classes.get(input.classId);
  if (!cls || cls.row.status === "deleted") throw new FinanceError(404, "Class not found.", { classId: "Please select class!" });
  const termless = isTermless(cls.classType);
  const start = input.lessonStartDate;
  const money = centsToNumeric;
  const terms: ClassFreeTerm[] = termless
    ? []
    : cls.terms.map((t) => {
        const lessons = billedLessons({ classType: cls.classType, lessonStartDate: start, termIds: [t.id], lessons: cls.lessons });
        return { ...t, lessons: lessons.length, lessonIds: lessons.map((l) => l.id), pricing: money(cls.unitPrice), total: money(lessons.length * cls.unitPrice), selectable: isTermSelectable(t, start) };
      });
  const billed = termless
    ? billedLessons({ classType: cls.classType, lessonStartDate: start, termIds: [], lessons: cls.lessons })
    : billedLessons({ classType: cls.classType, lessonStartDate: start, termIds: terms.filter((t) => t.selectable).map((t) => t.id), lessons: cls.lessons });
  return {
    classId: cls.id,
    className: cls.name,
    classType: cls.classType,
    classStatus: cls.classStatus,
    lessonStartDate: start,
    period: billed.length ? { startDate: billed[0]!.date, endDate: billed[billed.length - 1]!.date } : null,
    pricing: money(cls.unitPrice),
    terms,
    termInformations: terms,
    total: money(billed.length * cls.unitPrice),
    additionalLesson: { quantity: 0, pricing: money(cls.unitPrice), total: money(0) },
  };
}
