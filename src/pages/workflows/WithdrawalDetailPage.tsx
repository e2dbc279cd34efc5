/**
 * /withdrawal/view-withdrawal/{withdrawalId}/detail: the withdrawal (student, class, dates, status) and its refund —
 * where front desk completes the classes and dates and sends it to sales; later steps show read only here.
 */
import { Alert, Card, Descriptions, Space, Spin, Tag } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { gqlRequest } from "../../app/graphql.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../domain/dates.ts";
import { REQUEST_STATUS_LABELS } from "../../domain/finance/workflow.ts";
import { RefundView } from "./RefundView.tsx";

interface WithdrawalRow {
  id: string; withdrawalDate: string; lastLessonDate: string | null; reason: string | null; remarks: string | null; withdrawalStatus: keyof typeof REQUEST_STATUS_LABELS;
  student: { fullName: string | null; username: string } | null; class: { name: string } | null; refunds: { id: string }[];
}

export default function WithdrawalDetailPage() {
  const { withdrawalId } = useParams();
  const { data, isLoading } = useQuery({
    queryKey: ["withdrawal", withdrawalId],
    enabled: Boolean(withdrawalId),
    retry: false,
    queryFn: async () =>
      (
        await gqlRequest<{ row: WithdrawalRow | null }>(
          `query Withdrawal($id: uuid!) { row: withdrawals_by_pk(id: $id) { id withdrawalDate lastLessonDate reason remarks withdrawalStatus
            student { fullName username } class { name } refunds(order_by: [{ createdAt: desc }], limit: 1) { id } } }`,
          { id: withdrawalId },
        )
      ).row,
  });
  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!data) return <Alert type="error" message="Withdrawal not found." />;
  const day = (v: string | null) => (v ? formatCalendarDay(v, DISPLAY_DATE_FORMAT) : "--");
  const refundId = data.refunds[0]?.id;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card title="Withdrawal Detail" extra={<Tag>{REQUEST_STATUS_LABELS[data.withdrawalStatus]}</Tag>}>
        <Descriptions size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label="Student">{data.student ? `${data.student.fullName ?? ""} (${data.student.username})` : "--"}</Descriptions.Item>
          <Descriptions.Item label="Class">{data.class?.name ?? "--"}</Descriptions.Item>
          <Descriptions.Item label="Notice Date">{day(data.withdrawalDate)}</Descriptions.Item>
          <Descriptions.Item label="Last Lesson Date">{day(data.lastLessonDate)}</Descriptions.Item>
          <Descriptions.Item label="Reason">{data.reason ?? "--"}</Descriptions.Item>
          <Descriptions.Item label="Remarks">{data.remarks ?? "--"}</Descriptions.Item>
        </Descriptions>
      </Card>
      {refundId ? <RefundView id={refundId} /> : <Alert type="info" message="This withdrawal has no refund." />}
    </Space>
  );
}
