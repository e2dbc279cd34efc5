-- Issue 38 §2: the student attendance report over a year read ~10⁶ lesson-student rows (1–5 s at scale 20000). What it
-- counts is kept per class, student and month here, maintained in the same transaction by statement-level triggers on
-- lessons_students and lessons (transition tables: a bulk insert is one upsert, not one per row). The report reads
-- whole months from it and only the partial months at the period's ends from the lessons; `npm run reconcile`
-- checks every row against lessons_students (server/reports/attendanceMonths.ts).
-- A row counts as in the report: an active lesson (status and lessonStatus) and an enrolled, transferred or
-- replacement seat marked attended or not attended; attended = status 'attended' or hasAttended.
create table app_internal.attendance_months (
  "classId" uuid not null,
  "studentId" uuid not null,
  month date not null check (month = date_trunc('month', month)::date),
  lessons integer not null,
  attended integer not null,
  primary key ("classId", "studentId", month)
);

-- adds (sign 1) or takes away (sign -1) the counted seats of `seats` (a table of lessons_students rows: a trigger's
-- transition table or lessons_students) read with their lessons as `lessons_of` has them (lessons or a transition table)
create function app_internal.attendance_months_sql(sign integer, seats text, lessons_of text, lesson_ids text default 'true') returns text
language sql immutable as $$
  select format($f$insert into app_internal.attendance_months as m ("classId", "studentId", month, lessons, attended)
    select l."classId", s."studentId", date_trunc('month', l.date)::date, %1$s * count(*), %1$s * count(*) filter (where s.status = 'attended' or s."hasAttended")
    from %2$s s join %3$s l on l.id = s."lessonId"
    where l.status = 'active' and l."lessonStatus" = 'active' and s.type in ('enrolled', 'transferred', 'replacement') and s.status in ('attended', 'not_attended') and %4$s
    group by 1, 2, 3
    on conflict ("classId", "studentId", month) do update set lessons = m.lessons + excluded.lessons, attended = m.attended + excluded.attended$f$,
    sign, seats, lessons_of, lesson_ids)
$$;

create function app_internal.attendance_months_seats() returns trigger
language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    execute app_internal.attendance_months_sql(-1, 'old_rows', 'lessons');
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    execute app_internal.attendance_months_sql(1, 'new_rows', 'lessons');
  end if;
  return null;
end $$;

create trigger attendance_months_on_insert after insert on lessons_students referencing new table as new_rows
  for each statement execute function app_internal.attendance_months_seats();
create trigger attendance_months_on_update after update on lessons_students referencing old table as old_rows new table as new_rows
  for each statement execute function app_internal.attendance_months_seats();
create trigger attendance_months_on_delete after delete on lessons_students referencing old table as old_rows
  for each statement execute function app_internal.attendance_months_seats();

-- a lesson moved, cancelled or given to another class moves its seats' counts (a lesson with seats cannot be deleted)
create function app_internal.attendance_months_lessons() returns trigger
language plpgsql as $$
declare
  moved constant text := $m$l.id in (select o.id from old_rows o join new_rows n on n.id = o.id
    where (o."classId", o.date, o.status, o."lessonStatus") is distinct from (n."classId", n.date, n.status, n."lessonStatus"))$m$;
begin
  execute app_internal.attendance_months_sql(-1, 'lessons_students', 'old_rows', moved);
  execute app_internal.attendance_months_sql(1, 'lessons_students', 'new_rows', moved);
  return null;
end $$;

create trigger attendance_months_on_lesson_update after update on lessons referencing old table as old_rows new table as new_rows
  for each statement execute function app_internal.attendance_months_lessons();

do $$ begin execute app_internal.attendance_months_sql(1, 'lessons_students', 'lessons'); end $$;
