/** /class/management/{classId}/view/lesson-create: one more lesson for the class; its enrolled students join it. */
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import { Alert, Button, Card, Form, Space, TimePicker } from "antd";
import { DateInput } from "../../framework/inputs/DateInputs.tsx";
import { toast } from "../../framework/toast.ts";
import { useOne } from "@refinedev/core";
import type { Dayjs } from "dayjs";
import { RelationSelect } from "../../framework/components.ts";
import { api, rejectionMessage } from "../../app/api.ts";

export default function LessonCreatePage() {
  const { classId = "" } = useParams();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const { result: cls } = useOne<{ id: string; name: string; branchId: string | null }>({ resource: "classes", id: classId, meta: { fields: ["id", "name", "branchId"] } });
  const back = () => navigate(`/class/management/${classId}/view`);
  const submit = async (v: { date: Dayjs; classroomId?: string; time: [Dayjs, Dayjs] }) => {
    setSaving(true);
    setError(undefined);
    try {
      await api("POST", `/classes/${classId}/lessons`, {
        date: v.date.format("YYYY-MM-DD"), classroomId: v.classroomId || undefined,
        sessions: [{ startTime: v.time[0].format("HH:mm"), endTime: v.time[1].format("HH:mm") }],
      });
      void toast.success("Lesson added.");
      back();
    } catch (err) {
      setError(rejectionMessage(err, "The lesson could not be added."));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card title={`Create Lesson${cls ? ` — ${cls.name}` : ""}`}>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form layout="vertical" style={{ maxWidth: 480 }} onFinish={submit}>
        <Form.Item name="date" label="Date" rules={[{ required: true, message: "Please input date!" }]}><DateInput /></Form.Item>
        <Form.Item name="time" label="Session" rules={[{ required: true, message: "Please input session time!" }]}>
          <TimePicker.RangePicker format="HH:mm" minuteStep={5} />
        </Form.Item>
        <Form.Item name="classroomId" label="Classroom" help="Empty: the classroom of the class's last lesson.">
          <RelationSelect target="classrooms" labelField="name" where={cls?.branchId ? { branchId: { _eq: cls.branchId } } : undefined} id="classroomId" />
        </Form.Item>
        <Space>
          <Button onClick={back}>Cancel</Button>
          <Button type="primary" htmlType="submit" loading={saving}>Create</Button>
        </Space>
      </Form>
    </Card>
  );
}
