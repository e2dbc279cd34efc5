/**
 * /withdrawal/{withdrawalId} (a new withdrawal for student {withdrawalId}) and /withdrawal/{withdrawalId}/{studentInfoId}
 * (for one of their enrolments): the classes not yet refunded, the last lesson date and notice date; what the
 * class's refund line would be; Save withdraws the student and starts the refund (POST /refund {type: withdrawal}).
 */
import { Alert, Card, Descriptions, Form, Select, Space } from "antd";
import { toast } from "../../framework/toast.ts";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router";
import dayjs, { type Dayjs } from "dayjs";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import { DATE_FORMAT } from "../../domain/dates.ts";
import { formatMoney, numericToCents } from "../../domain/money.ts";
import { REFUND_MESSAGES } from "../../domain/finance/refund.ts";
import { DateInput } from "../../framework/inputs/lazyInputs.tsx";
import { StudentPicker } from "../students/StudentPicker.tsx";
import { useEnrolments } from "./studentClasses.ts";
import { useCanCreate } from "./workflowRights.ts";
import { ReasonAndSave } from "./ReasonAndSave.tsx";
import { useFormEdits } from "../../framework/formEdits.ts";

interface Values { classId?: string; lastLessonDate?: Dayjs; noticeDate?: Dayjs; reason?: string; remarks?: string }
interface ClassInfo { leftLessonNo: number; unitPrice: string; gst: number; leftLessonAmount: string; amount: string }

export default function WithdrawalCreatePage() {
  const { withdrawalId: studentId, studentInfoId } = useParams();
  const navigate = useNavigate();
  const canCreate = useCanCreate("withdrawal");
  const [form] = Form.useForm<Values>();
  const edits = useFormEdits(form);
  const [saving, setSaving] = useState(false);
  const [info, setInfo] = useState<ClassInfo | null>(null);
  const { data: classes = [] } = useQuery({
    queryKey: ["classes-not-refund", studentId],
    enabled: Boolean(studentId),
    retry: false,
    queryFn: async () => (await api<{ id: string; name: string; classCode: string | null; lastLessonDate: string | null }[]>("GET", `/classes/classes-not-refund?studentId=${studentId}`)).data ?? [],
  });
  const { data: enrolments = [] } = useEnrolments(studentId);
  const classId = Form.useWatch("classId", form);
  const lastLessonDate = Form.useWatch("lastLessonDate", form);

  useEffect(() => {
    const preset = enrolments.find((e) => e.id === studentInfoId);
    if (preset && !form.getFieldValue("classId")) form.setFieldValue("classId", preset.classId);
  }, [enrolments, studentInfoId, form]);
  useEffect(() => {
    const c = classes.find((x) => x.id === classId);
    if (c?.lastLessonDate && !form.getFieldValue("lastLessonDate")) form.setFieldValue("lastLessonDate", dayjs(c.lastLessonDate));
  }, [classId, classes, form]);
  useEffect(() => {
    if (!studentId || !classId || !lastLessonDate) return setInfo(null);
    let live = true;
    void api<ClassInfo>("POST", "/classes/get-class-infor-for-refund", { studentId, classId, lastLessonDate: lastLessonDate.format(DATE_FORMAT) }).then(
      (r) => live && setInfo(r.data ?? null),
      () => live && setInfo(null),
    );
    return () => {
      live = false;
    };
  }, [studentId, classId, lastLessonDate]);

  const save = async (v: Values) => {
    setSaving(true);
    try {
      const r = await api<{ withdrawalId: string; refundId: string }>("POST", "/refund", {
        type: "withdrawal",
        studentId,
        classId: v.classId,
        lastLessonDate: v.lastLessonDate?.format(DATE_FORMAT),
        noticeDate: v.noticeDate?.format(DATE_FORMAT),
        reason: v.reason ?? null,
        remarks: v.remarks ?? null,
      });
      void toast.success("Withdrawal saved.");
      edits.saved(() => navigate(`/withdrawal/view-withdrawal/${r.data!.withdrawalId}/detail`));
    } catch (e) {
      void toast.error(rejectionMessage(e, "The withdrawal could not be saved."));
      form.setFields(rejectionFieldErrors(e).map((f) => ({ name: f.name as keyof Values, errors: f.errors })));
    } finally {
      setSaving(false);
    }
  };

  if (!canCreate) return <Alert type="info" message="Only front desk and operations managers withdraw a student." />;
  const money = (v: string) => formatMoney(numericToCents(v) ?? 0);
  return (
    <Card title="New Withdrawal">
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        <StudentPicker value={studentId} disabled hideWhenDisabled />
        <Form form={form} onValuesChange={edits.onValuesChange} layout="vertical" onFinish={save} disabled={saving} initialValues={{ noticeDate: dayjs() }} style={{ maxWidth: 720 }}>
          <Form.Item label="Class" name="classId" rules={[{ required: true, message: REFUND_MESSAGES.class }]}>
            <Select
              placeholder="Class"
              options={classes.map((c) => ({ value: c.id, label: `${c.name}${c.classCode ? ` (${c.classCode})` : ""}` }))}
              notFoundContent="The student has no class to withdraw from."
            />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item label="Last Lesson Date" name="lastLessonDate" rules={[{ required: true, message: REFUND_MESSAGES.lastLessonDate }]}>
              <DateInput />
            </Form.Item>
            <Form.Item label="Notice Date" name="noticeDate" rules={[{ required: true, message: REFUND_MESSAGES.noticeDate }]}>
              <DateInput />
            </Form.Item>
          </Space>
          {info && (
            <Descriptions size="small" bordered column={2} style={{ marginBottom: 16 }} data-testid="withdrawal-refund-preview">
              <Descriptions.Item label="Lessons Left (paid)">{info.leftLessonNo}</Descriptions.Item>
              <Descriptions.Item label="Unit Price">{money(info.unitPrice)}</Descriptions.Item>
              <Descriptions.Item label="Left Lesson Amount">{money(info.leftLessonAmount)}</Descriptions.Item>
              <Descriptions.Item label={`Refund (with GST ${info.gst}%)`}>{money(info.amount)}</Descriptions.Item>
            </Descriptions>
          )}
          <ReasonAndSave listPath="/withdrawal" saving={saving} reasonRequired={REFUND_MESSAGES.reason} />
        </Form>
      </Space>
    </Card>
  );
}
