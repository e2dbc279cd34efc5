-- Issue 38 §2: the student attendance report's totals (how many student × class pairs, their lessons and attended)
-- merged a year's ~240k monthly rows of app_internal.attendance_months into 36k pairs (scale 20000) on every page. The
-- same counts are kept here a row per class, student and calendar year, its twelve months side by side (l1…l12 lessons,
-- a1…a12 attended): a year is ~40k rows. Kept by the same statements as attendance_months (the triggers of migration
-- 1763700730000 run app_internal.attendance_months_sql), adding and subtracting (two writers add up, never overwrite);
-- filled here from attendance_months; `npm run reconcile` checks it against attendance_months; the scale seed rebuilds it.
create table app_internal.attendance_years (
  "classId" uuid not null,
  "studentId" uuid not null,
  year integer not null,
  l1 integer not null, l2 integer not null, l3 integer not null, l4 integer not null, l5 integer not null, l6 integer not null,
  l7 integer not null, l8 integer not null, l9 integer not null, l10 integer not null, l11 integer not null, l12 integer not null,
  a1 integer not null, a2 integer not null, a3 integer not null, a4 integer not null, a5 integer not null, a6 integer not null,
  a7 integer not null, a8 integer not null, a9 integer not null, a10 integer not null, a11 integer not null, a12 integer not null,
  primary key (year, "classId", "studentId")
);

-- the monthly counts' statement (same arguments as before) now adds the same counts to the yearly rows as well
create or replace function app_internal.attendance_months_sql(sign integer, seats text, lessons_of text, lesson_ids text default 'true') returns text
language sql immutable as $$
  select format($f$with counts as (
      select l."classId", s."studentId", date_trunc('month', l.date)::date as month, %1$s * count(*) as lessons, %1$s * count(*) filter (where s.status = 'attended' or s."hasAttended") as attended
      from %2$s s join %3$s l on l.id = s."lessonId"
      where l.status = 'active' and l."lessonStatus" = 'active' and s.type in ('enrolled', 'transferred', 'replacement') and s.status in ('attended', 'not_attended') and %4$s
      group by 1, 2, 3),
    months as (
      insert into app_internal.attendance_months as m ("classId", "studentId", month, lessons, attended) select * from counts
      on conflict ("classId", "studentId", month) do update set lessons = m.lessons + excluded.lessons, attended = m.attended + excluded.attended)
    insert into app_internal.attendance_years as y ("classId", "studentId", year, %5$s)
    select "classId", "studentId", extract(year from month)::int, %6$s from counts group by 1, 2, 3
    on conflict (year, "classId", "studentId") do update set %7$s$f$,
    sign, seats, lessons_of, lesson_ids,
    (select string_agg(format('l%s', i), ', ') || ', ' || string_agg(format('a%s', i), ', ') from generate_series(1, 12) i),
    (select string_agg(format('coalesce(sum(lessons) filter (where extract(month from month) = %s), 0)', i), ', ')
       || ', ' || string_agg(format('coalesce(sum(attended) filter (where extract(month from month) = %s), 0)', i), ', ') from generate_series(1, 12) i),
    (select string_agg(format('l%1$s = y.l%1$s + excluded.l%1$s, a%1$s = y.a%1$s + excluded.a%1$s', i), ', ') from generate_series(1, 12) i))
$$;

insert into app_internal.attendance_years ("classId", "studentId", year, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
select "classId", "studentId", extract(year from month)::int,
  coalesce(sum(lessons) filter (where extract(month from month) = 1), 0), coalesce(sum(lessons) filter (where extract(month from month) = 2), 0),
  coalesce(sum(lessons) filter (where extract(month from month) = 3), 0), coalesce(sum(lessons) filter (where extract(month from month) = 4), 0),
  coalesce(sum(lessons) filter (where extract(month from month) = 5), 0), coalesce(sum(lessons) filter (where extract(month from month) = 6), 0),
  coalesce(sum(lessons) filter (where extract(month from month) = 7), 0), coalesce(sum(lessons) filter (where extract(month from month) = 8), 0),
  coalesce(sum(lessons) filter (where extract(month from month) = 9), 0), coalesce(sum(lessons) filter (where extract(month from month) = 10), 0),
  coalesce(sum(lessons) filter (where extract(month from month) = 11), 0), coalesce(sum(lessons) filter (where extract(month from month) = 12), 0),
  coalesce(sum(attended) filter (where extract(month from month) = 1), 0), coalesce(sum(attended) filter (where extract(month from month) = 2), 0),
  coalesce(sum(attended) filter (where extract(month from month) = 3), 0), coalesce(sum(attended) filter (where extract(month from month) = 4), 0),
  coalesce(sum(attended) filter (where extract(month from month) = 5), 0), coalesce(sum(attended) filter (where extract(month from month) = 6), 0),
  coalesce(sum(attended) filter (where extract(month from month) = 7), 0), coalesce(sum(attended) filter (where extract(month from month) = 8), 0),
  coalesce(sum(attended) filter (where extract(month from month) = 9), 0), coalesce(sum(attended) filter (where extract(month from month) = 10), 0),
  coalesce(sum(attended) filter (where extract(month from month) = 11), 0), coalesce(sum(attended) filter (where extract(month from month) = 12), 0)
from app_internal.attendance_months group by 1, 2, 3;
