/** The class view's enrolment dialogs: enrol (or enroll_last_partial), transfer to another class, replace one lesson. */
import { useState } from "react";
import { Checkbox, Form, Modal, Select } from "antd";
import { DateInput } from "../../framework/inputs/DateInputs.tsx";
import { toast } from "../../framework/toast.ts";
import { useList } from "@refinedev/core";
import type { Dayjs } from "dayjs";
import { RelationSelect } from "../../framework/components.ts";
import { api, rejectionMessage } from "../../app/api.ts";
import { formatDay } from "../../domain/dates.ts";
import { replacesWithin } from "../../domain/attendance.ts";

const STUDENTS = { type: { _eq: "student" }, status: { _eq: "active" } };

/** Runs a REST call from a dialog: a success toast and refresh, or the server's message as an error toast. */
function useCall(onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const run = async (method: string, path: string, body: unknown, success: string) => {
    setBusy(true);
    try {
      await api(method, path, body);
      void toast.success(success);
      onDone();
      return true;
    } catch (err) {
      void toast.error(rejectionMessage(err, "The change was not saved."));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

export function EnrolDialog({ classId, open, onClose }: { classId: string; open: boolean; onClose: (changed: boolean) => void }) {
  const [form] = Form.useForm<{ studentId: string; lessonStartDate?: Dayjs; partial?: boolean }>();
  const { busy, run } = useCall(() => onClose(true));
  const partial = Form.useWatch("partial", form);
  return (
    <Modal title="Enrol Student" open={open} okText="Enrol" confirmLoading={busy} onCancel={() => onClose(false)} onOk={() => form.submit()} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={async (v) => {
        const ok = await run("POST", `/classes/${classId}/enrolments`, {
          studentId: v.studentId, lessonStartDate: v.lessonStartDate?.format("YYYY-MM-DD"), action: v.partial ? "enroll_last_partial" : undefined,
        }, "Student enrolled.");
        if (ok) form.resetFields();
      }}>
        <Form.Item name="studentId" label="Student" rules={[{ required: true, message: "Please select student!" }]}>
          <RelationSelect target="users" labelField="fullName" where={STUDENTS} id="enrol-student" />
        </Form.Item>
        <Form.Item name="partial" valuePropName="checked"><Checkbox>Enrol for the last part of the class (from a lesson)</Checkbox></Form.Item>
        <Form.Item name="lessonStartDate" label="Lesson Start Date" rules={[{ required: Boolean(partial), message: "Please input lesson start date!" }]}
          help="Empty: from the next lesson.">
          <DateInput />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function TransferDialog({ classId, studentId, onClose }: { classId: string; studentId: string | null; onClose: (changed: boolean) => void }) {
  const [form] = Form.useForm<{ toClassId: string; lessonStartDate: Dayjs; reason?: string }>();
  const { busy, run } = useCall(() => onClose(true));
  return (
    <Modal title="Transfer Student" open={Boolean(studentId)} okText="Request Transfer" confirmLoading={busy} onCancel={() => onClose(false)} onOk={() => form.submit()} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={(v) => run("POST", "/classes/transfers", {
        studentId, fromClassId: classId, toClassId: v.toClassId, lessonStartDate: v.lessonStartDate.format("YYYY-MM-DD"),
      }, "Transfer request created.")}>
        <Form.Item name="toClassId" label="To Class" rules={[{ required: true, message: "Please select class!" }]}>
          <RelationSelect target="classes" labelField="name" where={{ id: { _neq: classId }, classStatus: { _neq: "closed" } }} id="transfer-class" />
        </Form.Item>
        <Form.Item name="lessonStartDate" label="Lesson Start Date" rules={[{ required: true, message: "Please input lesson start date!" }]}>
          <DateInput />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface LessonOption { id: string; date: string; class?: { name: string } | null }

export function ReplaceDialog({ lessons, studentId, onClose }: { lessons: readonly LessonOption[]; studentId: string | null; onClose: (changed: boolean) => void }) {
  const [form] = Form.useForm<{ lessonStudentId: string; toClassId: string; toLessonId: string }>();
  const { busy, run } = useCall(() => onClose(true));
  const toClassId = Form.useWatch("toClassId", form);
  const lessonStudentId = Form.useWatch("lessonStudentId", form);
  const dateOf = new Map(lessons.map((l) => [l.id, l.date]));
  const { result: own } = useList<{ id: string; lessonId: string }>({
    resource: "lessons_students", pagination: { mode: "off" },
    filters: [{ field: "studentId", operator: "eq", value: studentId }, { field: "lessonId", operator: "in", value: lessons.map((l) => l.id) },
      { field: "type", operator: "in", value: ["enrolled", "transferred"] }, { field: "status", operator: "ne", value: "deleted" }],
    meta: { fields: ["id", "lessonId"] }, queryOptions: { enabled: Boolean(studentId) && lessons.length > 0 },
  });
  const { result: targets } = useList<LessonOption>({
    resource: "lessons", pagination: { mode: "off" }, sorters: [{ field: "date", order: "asc" }],
    filters: [{ field: "classId", operator: "eq", value: toClassId }, { field: "lessonStatus", operator: "eq", value: "active" }, { field: "status", operator: "ne", value: "deleted" }],
    meta: { fields: ["id", "date"] }, queryOptions: { enabled: Boolean(toClassId) },
  });
  const ownRows = own?.data ?? [];
  const replacedDay = dateOf.get(ownRows.find((r) => r.id === lessonStudentId)?.lessonId ?? "");
  const offered = (targets?.data ?? []).filter((l) => !replacedDay || replacesWithin(replacedDay, l.date));
  return (
    <Modal title="Replace Lesson" open={Boolean(studentId)} okText="Replace" confirmLoading={busy} onCancel={() => onClose(false)} onOk={() => form.submit()} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={(v) => run("POST", "/classes/replacements", { lessonStudentId: v.lessonStudentId, toLessonId: v.toLessonId }, "Lesson replaced.")}>
        <Form.Item name="lessonStudentId" label="Lesson" rules={[{ required: true, message: "Please select lesson!" }]}>
          <Select
            options={ownRows.map((r) => ({ value: r.id, day: dateOf.get(r.lessonId) ?? "" })).sort((a, b) => (a.day < b.day ? -1 : 1)).map((o) => ({ value: o.value, label: formatDay(o.day) }))}
            onChange={() => form.setFieldValue("toLessonId", undefined)}
          />
        </Form.Item>
        <Form.Item name="toClassId" label="Replacement Class" rules={[{ required: true, message: "Please select class!" }]}>
          <RelationSelect target="classes" labelField="name" where={{ classStatus: { _neq: "closed" } }} id="replace-class" />
        </Form.Item>
        <Form.Item name="toLessonId" label="Replacement Lesson" extra="Lessons in the same month as the lesson it replaces." rules={[{ required: true, message: "Please select lesson!" }]}>
          <Select disabled={!toClassId || !replacedDay} options={offered.map((l) => ({ value: l.id, label: formatDay(l.date) }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
