/**
 * /suspension/{id} (a new suspension for student {id}) and /suspension/{id}/{studentInfoId} (for one of their
 * enrolments): pick the class and the suspension period; the lessons affected are listed; Save suspends them
 * and makes the suspension credit note for front desk to complete (POST /credit-notes {type: suspension}).
 */
import { Alert, Card, Form, Select, Space, Table } from "antd";
import { toast } from "../../framework/toast.ts";
import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router";
import type { Dayjs } from "dayjs";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import { DATE_FORMAT, DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../domain/dates.ts";
import { CREDIT_NOTE_MESSAGES, type CreditNoteClassInformation } from "../../domain/finance/creditNote.ts";
import { DateRangeInput } from "../../framework/inputs/lazyInputs.tsx";
import { StudentPicker } from "../students/StudentPicker.tsx";
import { useEnrolments } from "./studentClasses.ts";
import { useCanCreate } from "./workflowRights.ts";
import { ReasonAndSave } from "./ReasonAndSave.tsx";
import { useFormEdits } from "../../framework/formEdits.ts";

interface Values { classId?: string; period?: [Dayjs, Dayjs]; reason?: string; remarks?: string }

export default function SuspensionCreatePage() {
  const { id: studentId, studentInfoId } = useParams();
  const navigate = useNavigate();
  const canCreate = useCanCreate("suspension");
  const { data: enrolments = [] } = useEnrolments(studentId);
  const [form] = Form.useForm<Values>();
  const edits = useFormEdits(form);
  const [lessons, setLessons] = useState<CreditNoteClassInformation["lessons"]>([]);
  const [saving, setSaving] = useState(false);
  const classId = Form.useWatch("classId", form);
  const period = Form.useWatch("period", form);

  useEffect(() => {
    const preset = enrolments.find((e) => e.id === studentInfoId);
    if (preset && !form.getFieldValue("classId")) form.setFieldValue("classId", preset.classId);
  }, [enrolments, studentInfoId, form]);

  useEffect(() => {
    if (!studentId || !classId || !period?.[0] || !period[1]) return setLessons([]);
    const q = new URLSearchParams({ studentId, classId, startDate: period[0].format(DATE_FORMAT), endDate: period[1].format(DATE_FORMAT) });
    let live = true;
    void api<CreditNoteClassInformation>("GET", `/credit-notes/get-class-information-for-credit-note?${q}`).then(
      (r) => live && setLessons(r.data?.lessons ?? []),
      () => live && setLessons([]),
    );
    return () => {
      live = false;
    };
  }, [studentId, classId, period]);

  const save = async (v: Values) => {
    setSaving(true);
    try {
      const r = await api<{ suspensionId: string; creditNoteId: string }>("POST", "/credit-notes", {
        type: "suspension",
        studentId,
        classId: v.classId,
        startDate: v.period![0].format(DATE_FORMAT),
        endDate: v.period![1].format(DATE_FORMAT),
        reason: v.reason ?? null,
        remarks: v.remarks ?? null,
      });
      void toast.success("Suspension saved.");
      edits.saved(() => navigate(`/suspension/detail/${r.data!.suspensionId}/view`));
    } catch (e) {
      void toast.error(rejectionMessage(e, "The suspension could not be saved."));
      const toField = (n: string) => (["startDate", "endDate", "suspensionPeriod"].includes(n) ? "period" : n) as keyof Values;
      form.setFields(rejectionFieldErrors(e).map((f) => ({ name: toField(f.name), errors: f.errors })));
    } finally {
      setSaving(false);
    }
  };

  if (!canCreate) return <Alert type="info" message="Only front desk and operations managers suspend a student." />;
  return (
    <Card title="New Suspension">
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        <StudentPicker value={studentId} disabled hideWhenDisabled />
        <Form form={form} onValuesChange={edits.onValuesChange} layout="vertical" onFinish={save} disabled={saving} style={{ maxWidth: 720 }}>
          <Form.Item label="Class" name="classId" rules={[{ required: true, message: CREDIT_NOTE_MESSAGES.class }]}>
            <Select
              placeholder="Class"
              options={enrolments.map((e) => ({ value: e.classId, label: `${e.class?.name ?? e.classId}${e.class?.classCode ? ` (${e.class.classCode})` : ""}` }))}
              notFoundContent="The student has no class to suspend."
            />
          </Form.Item>
          <Form.Item label="Suspension Period" name="period" rules={[{ required: true, message: CREDIT_NOTE_MESSAGES.suspensionPeriod }]}>
            <DateRangeInput style={{ width: "100%" }} />
          </Form.Item>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            style={{ marginBottom: 16 }}
            dataSource={lessons}
            locale={{ emptyText: "No lessons to suspend in this period." }}
            columns={[
              { title: "#", key: "i", width: 56, render: (_v, _r, i) => i + 1 },
              { title: "Lessons Affected", dataIndex: "date", render: (d: string) => formatCalendarDay(d, DISPLAY_DATE_FORMAT) },
            ]}
            data-testid="suspension-lessons"
          />
          <ReasonAndSave listPath="/suspension" saving={saving} />
        </Form>
      </Space>
    </Card>
  );
}
