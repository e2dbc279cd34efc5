/**
 * /class/management/create and /class/management/{programId}/create: a class with the spec's defaults (total
 * loop 1, class size 20, category regular, status new), its calendar and terms, classroom, tutors and session
 * times. The server generates the lessons from the calendar (src/domain/lessonSchedule) and refuses a
 * classroom or tutor already booked.
 */
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import { Alert, Button, Card, Checkbox, Form, Input, InputNumber, Select, Space, TimePicker } from "antd";
import { DateInput } from "../../framework/inputs/DateInputs.tsx";
import { toast } from "../../framework/toast.ts";
import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { useList } from "@refinedev/core";
import type { Dayjs } from "dayjs";
import { RelationSelect } from "../../framework/components.ts";
import { api, rejectionFieldErrors, rejectionMessage } from "../../app/api.ts";
import { CATEGORY_LABELS, CLASS_STATUS_LABELS, CLASS_TIERS, NEW_CLASS_DEFAULTS } from "../../domain/attendance.ts";
import { useFormEdits } from "../../framework/formEdits.ts";
import { formatDay } from "../../domain/dates.ts";

const TEACHING = { multipleRoles: { _has_keys_any: ["fulltime_tutor", "parttime_tutor", "hod", "tutor"] } };

interface Values {
  name: string; classCode?: string; programId: string; academicCalendarId: string; termIds?: string[]; branchId: string; classroomId: string;
  tutorIds: string[]; classTier?: string; lessonType: string; classSize: number; totalLoop: number; classStatus: string; startDate: Dayjs;
  sessions: { time: [Dayjs, Dayjs] }[]; customDates?: Dayjs[]; remark?: string;
}

export default function ClassCreatePage() {
  const { programId } = useParams();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const edits = useFormEdits(form);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const calendarId = Form.useWatch("academicCalendarId", form);
  const branchId = Form.useWatch("branchId", form);
  const { result: calendars } = useList<{ id: string; category: string }>({
    resource: "academic_calendars", pagination: { mode: "off" }, filters: [{ field: "id", operator: "eq", value: calendarId }],
    meta: { fields: ["id", "category"] }, queryOptions: { enabled: Boolean(calendarId) },
  });
  const { result: terms } = useList<{ id: string; name: string; startDate: string; endDate: string; numberOfLessons: number }>({
    resource: "terms", pagination: { mode: "off" }, sorters: [{ field: "startDate", order: "asc" }],
    filters: [{ field: "academicCalendarId", operator: "eq", value: calendarId }, { field: "status", operator: "ne", value: "deleted" }],
    meta: { fields: ["id", "name", "startDate", "endDate", "numberOfLessons"] }, queryOptions: { enabled: Boolean(calendarId) },
  });
  const custom = calendars?.data?.[0]?.category === "custom";

  const submit = async (v: Values) => {
    setSaving(true);
    setError(undefined);
    try {
      const body = {
        name: v.name, classCode: v.classCode || null, programId: v.programId, academicCalendarId: v.academicCalendarId, termIds: v.termIds,
        branchId: v.branchId, classroomId: v.classroomId, tutorIds: v.tutorIds, classTier: v.classTier ?? null, lessonType: v.lessonType,
        classSize: v.classSize, totalLoop: v.totalLoop, classStatus: v.classStatus, startDate: v.startDate.format("YYYY-MM-DD"),
        sessions: v.sessions.map((s) => ({ startTime: s.time[0].format("HH:mm"), endTime: s.time[1].format("HH:mm") })),
        customDates: custom ? (v.customDates ?? []).map((d) => d.format("YYYY-MM-DD")) : undefined, remark: v.remark || null,
      };
      const res = await api<{ id: string; lessons: number }>("POST", "/classes", body);
      void toast.success(`Class created with ${res.data!.lessons} lessons.`);
      edits.saved(() => navigate(`/class/management/${res.data!.id}/view`));
    } catch (err) {
      form.setFields(rejectionFieldErrors(err) as never);
      setError(rejectionMessage(err, "The class could not be created."));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="Create Class">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="class-create-error" />}
      <Form<Values>
        onValuesChange={edits.onValuesChange}
        form={form}
        layout="vertical"
        style={{ maxWidth: 720 }}
        onFinish={submit}
        initialValues={{ programId, classSize: NEW_CLASS_DEFAULTS.classSize, totalLoop: NEW_CLASS_DEFAULTS.totalLoop, lessonType: NEW_CLASS_DEFAULTS.lessonType,
          classStatus: NEW_CLASS_DEFAULTS.classStatus, sessions: [{}] }}
      >
        <Form.Item name="programId" label="Programme" rules={[{ required: true, message: "Please select programme!" }]}>
          <RelationSelect target="programs" labelField="name" id="programId" />
        </Form.Item>
        <Form.Item name="name" label="Class Name" rules={[{ required: true, message: "Please input class name!" }]}><Input /></Form.Item>
        <Form.Item name="classCode" label="Class Code"><Input /></Form.Item>
        <Form.Item name="academicCalendarId" label="Academic Calendar" rules={[{ required: true, message: "Please select academic calendar!" }]}>
          <RelationSelect target="academic_calendars" labelField="name" id="academicCalendarId" />
        </Form.Item>
        {calendarId && (
          <Form.Item name="termIds" label="Terms" help="Lessons are generated for the chosen terms (all when none is chosen), each up to its number of lessons.">
            <Checkbox.Group options={(terms?.data ?? []).map((t) => ({ value: t.id, label: `${t.name} (${formatDay(t.startDate)} – ${formatDay(t.endDate)}, ${t.numberOfLessons} lessons)` }))} />
          </Form.Item>
        )}
        <Form.Item name="startDate" label="First Lesson Date" rules={[{ required: true, message: "Please input lesson start date!" }]}>
          <DateInput />
        </Form.Item>
        {custom && (
          <Form.Item name="customDates" label="Lesson Dates" rules={[{ required: true, message: "Please select lesson dates!" }]}>
            <DateInput multiple />
          </Form.Item>
        )}
        <Form.List name="sessions">
          {(fields, { add, remove }) => (
            <Form.Item label="Sessions" required>
              {fields.map((f) => (
                <Space key={f.key} align="baseline">
                  <Form.Item name={[f.name, "time"]} rules={[{ required: true, message: "Please input session time!" }]}>
                    <TimePicker.RangePicker format="HH:mm" minuteStep={5} aria-label="Session time" />
                  </Form.Item>
                  {fields.length > 1 && <MinusCircleOutlined onClick={() => remove(f.name)} aria-label="Remove session" />}
                </Space>
              ))}
              <Button type="dashed" onClick={() => add({})} icon={<PlusOutlined />}>Add Session</Button>
            </Form.Item>
          )}
        </Form.List>
        <Form.Item name="branchId" label="Branch" rules={[{ required: true, message: "Please select branch!" }]}>
          <RelationSelect target="branches" labelField="name" id="branchId" />
        </Form.Item>
        <Form.Item name="classroomId" label="Classroom" rules={[{ required: true, message: "Please select classroom!" }]}>
          <RelationSelect key={branchId ?? "none"} target="classrooms" labelField="name" id="classroomId" disabled={!branchId} where={{ branchId: { _eq: branchId ?? null } }} />
        </Form.Item>
        <Form.Item name="tutorIds" label="Tutors" rules={[{ required: true, message: "Please select tutors!" }]}>
          <RelationSelect target="users" labelField="fullName" many where={TEACHING} id="tutorIds" />
        </Form.Item>
        <Space wrap>
          <Form.Item name="classTier" label="Class Tier"><Select allowClear style={{ width: 120 }} options={CLASS_TIERS.map((t) => ({ value: t, label: t }))} /></Form.Item>
          <Form.Item name="lessonType" label="Category"><Select style={{ width: 160 }} options={Object.entries(CATEGORY_LABELS).map(([value, label]) => ({ value, label }))} /></Form.Item>
          <Form.Item name="classSize" label="Class Size" rules={[{ required: true }]}><InputNumber min={1} max={1000} /></Form.Item>
          <Form.Item name="totalLoop" label="Total Loop" rules={[{ required: true }]}><InputNumber min={1} max={100} /></Form.Item>
          <Form.Item name="classStatus" label="Status"><Select style={{ width: 120 }} options={Object.entries(CLASS_STATUS_LABELS).map(([value, label]) => ({ value, label }))} /></Form.Item>
        </Space>
        <Form.Item name="remark" label="Remark"><Input.TextArea rows={2} /></Form.Item>
        <Space>
          <Button onClick={() => navigate("/class/management")}>Cancel</Button>
          <Button type="primary" htmlType="submit" loading={saving}>Create</Button>
        </Space>
      </Form>
    </Card>
  );
}
