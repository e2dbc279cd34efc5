-- The student list (and every list of users by role) reads the newest rows of one role that are not deleted:
-- with this index it reads the ten rows of the page instead of every row of the role to sort them (issue 11:
-- on the embedded database the student list took 4.6 ms of the one connection per request at scale 2000, 2.4 with it).
create index users_role_updated_idx on users (role, "updatedAt" desc, id) where status <> 'deleted';
