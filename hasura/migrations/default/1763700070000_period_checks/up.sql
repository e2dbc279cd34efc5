-- A period may not end before it starts ("The end date cannot be before the start date."): the forms
-- check it, and so does the database for every writer (terms and suspensions had it from the start).
-- An open end (null) is allowed.

alter table holidays add constraint holidays_period_check check ("endTime" >= "startTime");
alter table classes add constraint classes_period_check check ("endDate" >= "startDate");
alter table discounts add constraint discounts_period_check check ("endDate" >= "startDate");
alter table credit_note_classes add constraint credit_note_classes_period_check check ("endDate" >= "startDate");
alter table posts add constraint posts_period_check check ("endDate" >= "startDate");
alter table lesson_sessions add constraint lesson_sessions_period_check check ("endTime" >= "startTime");
