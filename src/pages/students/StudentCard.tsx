/** The card of the chosen student (spec part 2 §2): first and last name, username, e-mail, phone, school. */
import { Card, Descriptions } from "antd";
import { formatPhone } from "../../framework/inputs/PhoneInput.tsx";
import { MISSING, type StudentOption } from "./studentSearch.ts";

const orMissing = (v: string | null | undefined) => (v && v.trim() ? v : MISSING);

export function StudentCard({ student }: { student: StudentOption }) {
  return (
    <Card size="small" data-testid="student-card" title={[student.firstName, student.lastName].filter(Boolean).join(" ") || student.username}>
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
        <Descriptions.Item label="First Name">{orMissing(student.firstName)}</Descriptions.Item>
        <Descriptions.Item label="Last Name">{orMissing(student.lastName)}</Descriptions.Item>
        <Descriptions.Item label="Username">{orMissing(student.username)}</Descriptions.Item>
        <Descriptions.Item label="Email">{orMissing(student.email)}</Descriptions.Item>
        <Descriptions.Item label="Phone">{orMissing(formatPhone(student.phone))}</Descriptions.Item>
        <Descriptions.Item label="School">{orMissing(student.school?.name)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
