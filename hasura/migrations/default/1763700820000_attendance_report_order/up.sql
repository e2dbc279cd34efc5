-- Issue 38 §2: the student attendance report's first page merged the ~240k monthly rows of a year into 36k student ×
-- class pairs (scale 20000) only to show 50. It now walks students in its order (their full names) and reads each
-- one's months (server/reports/attendance.ts); these two indexes are that walk and that read.
create index users_full_name_idx on users ("fullName");
create index attendance_months_student_idx on app_internal.attendance_months ("studentId", month) include ("classId", lessons, attended);
