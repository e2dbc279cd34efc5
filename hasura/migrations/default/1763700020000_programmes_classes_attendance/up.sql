-- Programmes, academic calendars and terms, classes, lessons and sessions, enrolments,
-- attendance, transfers, suspensions and withdrawals, gantry records.

create table academic_calendars (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  year int not null,
  category text not null default 'weekly' check (category in ('weekly', 'monthly', 'custom')),
  "categoryId" uuid references categories(id),
  "curriculumId" uuid references curriculums(id),
  "levelIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("levelIds") = 'array'),
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table terms (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  "startDate" date not null,
  "endDate" date not null,
  "numberOfLessons" int not null default 0,
  "academicCalendarId" uuid not null references academic_calendars(id),
  status text not null default 'active' check (status in ('active', 'deleted')),
  check ("endDate" >= "startDate")
);

create table programs (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  "programCode" text,
  "companyId" uuid references companies(id),
  "curriculumIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("curriculumIds") = 'array'),
  "levelIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("levelIds") = 'array'),
  "tutorIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("tutorIds") = 'array'),
  "subjectId" uuid references subjects(id),
  category text not null default 'regular' check (category in ('regular', 'double_lesson', 'special', 'others')),
  "categoryId" uuid references categories(id),
  "programTypeId" uuid references program_types(id),
  remark text,
  "curriculumFiles" jsonb not null default '[]'::jsonb,
  "enrolledStudents" int not null default 0,
  "DBWD" int not null default 0,
  "DBWE" int not null default 0,
  "DL" int not null default 0,
  general int not null default 0,
  special int not null default 0,
  "WLWE" int not null default 0,
  "WLWD" int not null default 0,
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index programs_program_code_idx on programs (lower("programCode"));

create table classes (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  "classCode" text,
  "classStatus" text not null default 'new' check ("classStatus" in ('new', 'open', 'closed')),
  "classType" text not null default 'regular' check ("classType" in ('special', 'regular', 'double_lesson', 'others')),
  "classTier" text check ("classTier" in ('BL1', 'BL2', 'BL3', 'BL4')),
  "lessonType" text not null default 'regular' check ("lessonType" in ('regular', 'double_lesson', 'special', 'others')),
  year int,
  "startDate" date,
  "endDate" date,
  remark text,
  tag text,
  "totalLoop" int not null default 1,
  "classSize" int not null default 20 check ("classSize" >= 0),
  "companyId" uuid references companies(id),
  "branchId" uuid references branches(id),
  "programId" uuid references programs(id),
  "programTypeId" uuid references program_types(id),
  "academicCalendarId" uuid references academic_calendars(id),
  "tutorIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("tutorIds") = 'array'),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index classes_class_code_idx on classes (lower("classCode"));
create index classes_year_idx on classes (year);

create table lessons (
  id uuid primary key default gen_random_uuid(),
  "classId" uuid not null references classes(id),
  "termId" uuid references terms(id),
  date date not null,
  "numberWeek" int,
  "orderPriority" int not null default 0,
  "lessonStatus" text not null default 'active' check ("lessonStatus" in ('active', 'cancel', 'deleted')),
  "classroomId" uuid references classrooms(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index lessons_class_date_idx on lessons ("classId", date);
create index lessons_date_idx on lessons (date);

create table lesson_sessions (
  id uuid primary key default gen_random_uuid(),
  "lessonId" uuid not null references lessons(id),
  "startTime" timestamptz not null,
  "endTime" timestamptz not null,
  "tutorIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("tutorIds") = 'array'),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index lesson_sessions_tutor_ids_idx on lesson_sessions using gin ("tutorIds" jsonb_path_ops);

-- Enrolments.
create table student_classes (
  id uuid primary key default gen_random_uuid(),
  "userId" uuid not null references users(id),
  "classId" uuid not null references classes(id),
  status text not null default 'enrolled' check (status in ('enrolled', 'transferred', 'replacement', 'suspended', 'withdrawn',
    'withdrawal', 'pending', 'returned', 'completed', 'has_been_transferred', 'has_been_replaced', 'voided', 'deleted')),
  type text not null default 'enrollment' check (type in ('transferred', 'withdrawn', 'enrollment')),
  action text check (action in ('enroll_last_partial', 'transfer', 'replace')),
  "termsRef" jsonb not null default '[]'::jsonb,
  "lessonStartDate" date,
  "endDate" date
);
create index student_classes_class_status_idx on student_classes ("classId", status);
create index student_classes_user_status_idx on student_classes ("userId", status);

create table lessons_students (
  id uuid primary key default gen_random_uuid(),
  "lessonId" uuid not null references lessons(id),
  "studentId" uuid not null references users(id),
  "studentClassId" uuid references student_classes(id),
  type text not null default 'enrolled' check (type in ('enrolled', 'transferred', 'replacement', 'withdrawal', 'has_been_replaced', 'has_been_transferred')),
  status text not null default 'not_attended' check (status in ('not_attended', 'attended', 'withdrawn', 'suspended', 'deleted')),
  "hasAttended" boolean not null default false,
  "entryTime" timestamptz,
  remarks text,
  "oldLessonId" uuid references lessons(id)
);
create index lessons_students_lesson_type_idx on lessons_students ("lessonId", type);
create index lessons_students_student_idx on lessons_students ("studentId", "lessonId");
create index lessons_students_old_lesson_idx on lessons_students ("oldLessonId") where "oldLessonId" is not null;

create table request_transfer_classes (
  id uuid primary key default gen_random_uuid(),
  "studentId" uuid not null references users(id),
  "fromClassId" uuid not null references classes(id),
  "toClassId" uuid not null references classes(id),
  "transferClassStatus" text not null default 'pending' check ("transferClassStatus" in ('pending', 'completed', 'rejected', 'cancelled')),
  "lessonStartDate" date,
  reason text,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table suspensions (
  id uuid primary key default gen_random_uuid(),
  "studentId" uuid not null references users(id),
  "classId" uuid not null references classes(id),
  "studentClassId" uuid references student_classes(id),
  "startDate" date not null,
  "endDate" date not null,
  "lessonIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("lessonIds") = 'array'),
  reason text,
  remarks text,
  "suspensionStatus" text not null default 'pending' check ("suspensionStatus" in ('pending', 'completed', 'rejected', 'cancelled')),
  status text not null default 'active' check (status in ('active', 'deleted')),
  check ("endDate" >= "startDate")
);

create table withdrawals (
  id uuid primary key default gen_random_uuid(),
  "studentId" uuid not null references users(id),
  "classId" uuid not null references classes(id),
  "studentClassId" uuid references student_classes(id),
  "withdrawalDate" date not null,
  "lastLessonDate" date,
  reason text,
  remarks text,
  "withdrawalStatus" text not null default 'pending' check ("withdrawalStatus" in ('pending', 'completed', 'rejected', 'cancelled')),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table gantry_records (
  id uuid primary key default gen_random_uuid(),
  "studentId" uuid references users(id),
  "branchId" uuid references branches(id),
  "lessonId" uuid references lessons(id),
  "cardNo" text,
  "deviceId" text,
  direction text not null default 'in' check (direction in ('in', 'out')),
  "recordedAt" timestamptz not null default now(),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index gantry_records_recorded_at_idx on gantry_records ("recordedAt" desc);

create table three_times_absents (
  id uuid primary key default gen_random_uuid(),
  "classId" uuid references classes(id),
  "studentId" uuid references users(id),
  "absentDates" jsonb not null default '[]'::jsonb check (jsonb_typeof("absentDates") = 'array'),
  "emailStatus" text,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table backup_attendance_logs (
  id uuid primary key default gen_random_uuid(),
  "lessonId" uuid references lessons(id),
  "lessonStudentId" uuid references lessons_students(id),
  "studentId" uuid references users(id),
  "valueBefore" jsonb,
  "valueAfter" jsonb,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table enrollment_list (
  id uuid primary key default gen_random_uuid(),
  "studentId" uuid references users(id),
  "classId" uuid references classes(id),
  "classInformation" jsonb,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

select app_internal.standardize();

-- indexes on the audit columns (added by standardize)
create index academic_calendars_year_idx on academic_calendars (year, "updatedAt" desc);
create index classes_class_status_idx on classes ("classStatus", status, "updatedAt" desc);
