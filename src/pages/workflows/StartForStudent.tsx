/** "New Suspension" / "New Withdrawal": pick the student, then open the workflow's page for them. */
import { Button, Modal } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useNavigate } from "react-router";
import { StudentPicker } from "../students/StudentPicker.tsx";

export function StartForStudent({ label, pathFor }: { label: string; pathFor: (studentId: string) => string }) {
  const [open, setOpen] = useState(false);
  const [studentId, setStudentId] = useState<string | null>(null);
  const navigate = useNavigate();
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal title={label} open={open} onCancel={() => setOpen(false)} okText="Continue" okButtonProps={{ disabled: !studentId }} onOk={() => studentId && navigate(pathFor(studentId))} destroyOnHidden>
        <StudentPicker value={studentId} onChange={(id) => setStudentId(id)} />
      </Modal>
    </>
  );
}
