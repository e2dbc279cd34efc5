/**
 * /suspension/detail/{id}/view: the suspension (student, class, period, status) and its credit note — where
 * front desk completes the class and period and sends it to finance; later steps show read only here.
 */
import { Alert, Card, Descriptions, Space, Spin, Tag } from "antd";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { useCan } from "@refinedev/core";
import { gqlRequest } from "../../app/graphql.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../domain/dates.ts";
import { REQUEST_STATUS_LABELS } from "../../domain/finance/workflow.ts";
import { CreditNoteView } from "./CreditNoteView.tsx";

interface SuspensionRow {
  id: string; startDate: string; endDate: string; reason: string | null; remarks: string | null; suspensionStatus: keyof typeof REQUEST_STATUS_LABELS;
  student: { fullName: string | null; username: string } | null; class: { name: string } | null; creditNotes: { id: string }[];
}

export default function SuspensionDetailPage() {
  const { id } = useParams();
  const { data, isLoading } = useQuery({
    queryKey: ["suspension", id],
    enabled: Boolean(id),
    retry: false,
    queryFn: async () =>
      (
        await gqlRequest<{ row: SuspensionRow | null }>(
          `query Suspension($id: uuid!) { row: suspensions_by_pk(id: $id) { id startDate endDate reason remarks suspensionStatus
            student { fullName username } class { name } creditNotes(order_by: [{ createdAt: desc }], limit: 1) { id } } }`,
          { id },
        )
      ).row,
  });
  const canOpenFinance = useCan({ resource: "/finance/credit-note", action: "view" }).data?.can === true;
  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!data) return <Alert type="error" message="Suspension not found." />;
  const cnId = data.creditNotes[0]?.id;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card title="Suspension Detail" extra={<Tag>{REQUEST_STATUS_LABELS[data.suspensionStatus]}</Tag>}>
        <Descriptions size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label="Student">{data.student ? `${data.student.fullName ?? ""} (${data.student.username})` : "--"}</Descriptions.Item>
          <Descriptions.Item label="Class">{data.class?.name ?? "--"}</Descriptions.Item>
          <Descriptions.Item label="Suspension Period">
            {formatCalendarDay(data.startDate, DISPLAY_DATE_FORMAT)} - {formatCalendarDay(data.endDate, DISPLAY_DATE_FORMAT)}
          </Descriptions.Item>
          <Descriptions.Item label="Reason">{data.reason ?? "--"}</Descriptions.Item>
          <Descriptions.Item label="Remarks">{data.remarks ?? "--"}</Descriptions.Item>
          {cnId && canOpenFinance && (
            <Descriptions.Item label="Credit Note">
              <Link to={`/finance/credit-note/update/${cnId}`}>Open in Finance</Link>
            </Descriptions.Item>
          )}
        </Descriptions>
      </Card>
      {cnId ? <CreditNoteView id={cnId} /> : <Alert type="info" message="This suspension has no credit note." />}
    </Space>
  );
}
