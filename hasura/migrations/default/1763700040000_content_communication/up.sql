-- Communication (broadcasts, news) and content management (categories, posts, menus,
-- resources, surveys), enquiries.

create table broadcasts (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  subject text,
  content text,
  via jsonb not null default '[]'::jsonb check (jsonb_typeof(via) = 'array' and via <@ '["email","sms","notification"]'::jsonb),
  "recipientType" text,
  "filterRecipient" jsonb,
  "broadcastStatus" text not null default 'draft',
  "scheduledAt" timestamptz,
  "sentAt" timestamptz,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index broadcasts_title_idx on broadcasts (lower(title));

create table broadcast_logs (
  id uuid primary key default gen_random_uuid(),
  "broadcastId" uuid not null references broadcasts(id),
  "recipientId" uuid references users(id),
  "smsStatus" text,
  "emailStatus" text,
  "notificationStatus" text,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table news (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  subject text,
  message text,
  footer text,
  "coverUrl" text,
  hashtags jsonb not null default '[]'::jsonb check (jsonb_typeof(hashtags) = 'array'),
  type text,
  "newsStatus" text not null default 'draft',
  "recipientType" text,
  "filterRecipient" jsonb,
  "sentAt" timestamptz,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index news_title_idx on news (lower(title));

create table news_logs (
  id uuid primary key default gen_random_uuid(),
  "newsId" uuid not null references news(id),
  "recipientId" uuid references users(id),
  email text,
  "statusSent" text,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table news_recipients_upload (
  id uuid primary key default gen_random_uuid(),
  "newsId" uuid references news(id),
  name text,
  email text not null,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table content_categories (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  "order" int not null default 0,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table posts (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  content text,
  "coverUrl" text,
  "datePosted" timestamptz,
  "startDate" date,
  "endDate" date,
  "isDisplay" boolean not null default true,
  "contentCategoryId" uuid references content_categories(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index posts_title_idx on posts (lower(title));

create table menus (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  link text,
  "index" int not null default 0,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

-- Resource categories have two levels: a first-level category (no parent) and its children.
create table resource_categories (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  "parentId" uuid references resource_categories(id),
  level int not null default 1 check (level in (1, 2)),
  "order" int not null default 0,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table resource_posts (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  content text,
  link text,
  "coverUrl" text,
  "datePosted" timestamptz,
  "isDisplay" boolean not null default true,
  "resourceCategoryId" uuid references resource_categories(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index resource_posts_title_idx on resource_posts (lower(title));

create table surveys (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  content text,
  link text,
  date date,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table enquiries (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  message text,
  "phoneNumber" text,
  email text,
  type text,
  "companyId" uuid references companies(id),
  status text not null default 'new' check (status in ('new', 'in_progress', 'closed', 'deleted'))
);

select app_internal.standardize();
