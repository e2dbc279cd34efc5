-- Issue 38 §2: both enrolment lists' first pages named every enrolment of the period (36,000 at scale 20000) one user
-- at a time before taking 50, on an estimate of 4,000. They now walk in their own order (server/reports/enrolments.ts):
-- the list class by class in name order, the first-time list enrolment by enrolment in the order they were made.
create index classes_name_idx on classes (name);
create index student_classes_created_at_idx on student_classes ("createdAt");
