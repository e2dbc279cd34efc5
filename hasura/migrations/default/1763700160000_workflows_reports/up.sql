-- Issues 16 and 17: the daily closing report reads payments by the instant they were paid; the suspension and
-- withdrawal checks look up a student's live suspensions and withdrawals of a class.
create index invoice_payments_paid_at_idx on invoice_payments ("paidAt");
create index suspensions_student_class_idx on suspensions ("studentId", "classId") where status = 'active';
create index withdrawals_student_class_idx on withdrawals ("studentClassId") where status = 'active';
