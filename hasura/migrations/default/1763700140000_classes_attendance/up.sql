-- issue 13: indexes for the class, attendance and gantry screens and the booking check.
-- Sessions by time (double-booking check, today's lessons on the monitor).
create index if not exists lesson_sessions_start_time_idx on lesson_sessions ("startTime");
-- The attendance list's order (newest lessons first).
create index if not exists lessons_date_desc_idx on lessons (date desc, id);
-- Gantry records: date range, by branch or student.
create index if not exists gantry_records_branch_idx on gantry_records ("branchId", "recordedAt" desc);
create index if not exists gantry_records_student_idx on gantry_records ("studentId", "recordedAt" desc);
-- Three-times-absent notices of a student in a class.
create index if not exists three_times_absents_class_student_idx on three_times_absents ("classId", "studentId");
