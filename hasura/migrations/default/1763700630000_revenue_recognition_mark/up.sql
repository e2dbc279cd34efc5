-- Issue 38: when every student's revenue recognition was last brought up to date (one row). A start-up on the same
-- Singapore day then rechecks only the students whose documents or lessons changed since, not every student
-- (a full walk read the 100k database's revenue model for minutes with nothing to post).
create table app_internal.revenue_recognition_mark (
  id boolean primary key default true check (id),
  day date not null,
  "startedAt" timestamptz not null
);
