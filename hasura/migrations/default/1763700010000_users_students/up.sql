-- Users (staff and students alike), roles, referrals. A student's profile (parents, siblings,
-- emergency contact, billing, school, curriculum, level) lives on the users row.

create table roles (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (name in ('admin', 'front_desk', 'ops_manager', 'hr', 'finance_staff', 'finance_manager',
    'attendance_checker', 'sales', 'intern', 'fulltime_tutor', 'parttime_tutor', 'hod', 'student', 'parent', 'tutor')),
  abbreviation text,
  "roleCode" text,
  "isTeaching" boolean not null default false,
  modules jsonb not null default '[]'::jsonb,
  "totalUsers" int not null default 0,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table users (
  id uuid primary key default gen_random_uuid(),
  username text not null,
  "firstName" text,
  "lastName" text,
  "fullName" text,
  email text,
  phone jsonb check (phone is null or jsonb_typeof(phone) = 'object'),
  dob date,
  gender text,
  address text,
  "avatarUrl" text,
  type text not null default 'admin' check (type in ('admin', 'student', 'tutor')),
  role text check (role in ('admin', 'front_desk', 'ops_manager', 'hr', 'finance_staff', 'finance_manager',
    'attendance_checker', 'sales', 'intern', 'fulltime_tutor', 'parttime_tutor', 'hod', 'student', 'parent', 'tutor')),
  "multipleRoles" jsonb not null default '[]'::jsonb check (jsonb_typeof("multipleRoles") = 'array' and "multipleRoles" <@
    '["admin","front_desk","ops_manager","hr","finance_staff","finance_manager","attendance_checker","sales","intern","fulltime_tutor","parttime_tutor","hod","student","parent","tutor"]'::jsonb),
  status text not null default 'active' check (status in ('deleted', 'active', 'locked', 'pending', 'disabled', 'inactive', 'draft')),
  "studentId" text,
  "bankId" uuid references banks(id),
  "bankNumber" text,
  "companyId" uuid references companies(id),
  "branchId" uuid references branches(id),
  "levelIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("levelIds") = 'array'),
  "subjectIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("subjectIds") = 'array'),
  "isVerifiedEmail" boolean not null default false,
  "isVerifiedPhoneNumber" boolean not null default false,
  "numOfFailed" int not null default 0,
  "cognitoId" text,
  attachments jsonb not null default '[]'::jsonb,
  -- student profile
  parents jsonb not null default '[]'::jsonb check (jsonb_typeof(parents) = 'array'),
  "firstParent" jsonb,
  siblings jsonb not null default '[]'::jsonb check (jsonb_typeof(siblings) = 'array'),
  "references" jsonb not null default '[]'::jsonb,
  subscribe boolean not null default true,
  "payOnline" boolean not null default false,
  "infiniteAmbassador" boolean not null default false,
  "paymentStatus" text,
  billing jsonb,
  "emergencyContact" jsonb,
  mailling jsonb,
  "curriculumId" uuid references curriculums(id),
  "levelId" uuid references levels(id),
  "schoolId" uuid references schools(id),
  "currentStep" int
);
create unique index users_username_lower_key on users (lower(username));
create index users_email_lower_idx on users (lower(email));
create index users_full_name_lower_idx on users (lower("fullName"));
create index users_multiple_roles_idx on users using gin ("multipleRoles" jsonb_path_ops);
create index users_student_id_idx on users ("studentId");

-- fullName follows firstName/lastName unless given explicitly.
create or replace function app_internal.set_full_name() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' and new."fullName" is not null then return new; end if;
  if tg_op = 'UPDATE' and new."fullName" is distinct from old."fullName" then return new; end if;
  new."fullName" := nullif(trim(coalesce(new."firstName", '') || ' ' || coalesce(new."lastName", '')), '');
  return new;
end $$;
create trigger set_full_name before insert or update on users for each row execute function app_internal.set_full_name();

create table referrals (
  id uuid primary key default gen_random_uuid(),
  "referrerId" uuid references users(id),
  "referreeId" uuid references users(id),
  "subjectId" uuid references subjects(id),
  "referralCode" text,
  "registrationDate" date,
  "referralStattus" text,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table email_student_logs (
  id uuid primary key default gen_random_uuid(),
  "studentId" uuid references users(id),
  email text,
  subject text,
  "emailStatus" text,
  "sentAt" timestamptz,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

select app_internal.standardize();

-- indexes on the audit columns (added by standardize)
create index users_role_status_idx on users (role, status, "updatedAt" desc);
create index users_type_status_idx on users (type, status, "updatedAt" desc);
