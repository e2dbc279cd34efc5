/**
 * /finance/refund/refunded/{id}: the printable refund voucher of a refunded refund (the browser prints it
 * to paper or PDF): a sheet with the number, student, payee, method, classes and totals.
 */
import { Alert, Button, Descriptions, Space, Spin, Table, Typography } from "antd";
import { PrinterOutlined } from "@ant-design/icons";
import { useParams } from "react-router";
import { formatMoneyValue } from "../../domain/formats.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../domain/dates.ts";
import { REFUND_METHOD_LABELS, REFUND_MESSAGES } from "../../domain/finance/refund.ts";
import { PAPER_CSS } from "../finance/PaperButtons.tsx";
import { useRefund } from "./RefundView.tsx";

const money = (v: string | null | undefined) => formatMoneyValue(v ?? "0");

export default function RefundVoucherPage() {
  const { id } = useParams();
  const { data: r, isLoading } = useRefund(id);
  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!r) return <Alert type="error" message={REFUND_MESSAGES.notFound} />;
  if (r.refundStatus !== "refunded") return <Alert type="info" message="The voucher is ready once the refund is refunded." />;
  return (
    <div>
      <style>{PAPER_CSS}</style>
      <Space className="pa-no-print" style={{ marginBottom: 16 }}>
        <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
          Print / Save as PDF
        </Button>
      </Space>
      <div className="pa-paper" data-testid="refund-voucher">
        <Typography.Title level={3}>Refund Voucher</Typography.Title>
        <Descriptions bordered size="small" column={2}>
          <Descriptions.Item label="Refund No.">{r.name}</Descriptions.Item>
          <Descriptions.Item label="Notice Date">{r.noticeDate ? formatCalendarDay(r.noticeDate, DISPLAY_DATE_FORMAT) : "--"}</Descriptions.Item>
          <Descriptions.Item label="Student">{r.student?.fullName ?? "--"}</Descriptions.Item>
          <Descriptions.Item label="Payee">{r.payeeDetails?.name ?? "--"}</Descriptions.Item>
          <Descriptions.Item label="Refund Method">{r.refundMethod ? REFUND_METHOD_LABELS[r.refundMethod] : "--"}</Descriptions.Item>
          <Descriptions.Item label="Bank / Account">{[r.payeeDetails?.bankName, r.payeeDetails?.accountNo].filter(Boolean).join(" ") || "--"}</Descriptions.Item>
          <Descriptions.Item label="Approved By">{r.issuedBy?.fullName ?? "--"}</Descriptions.Item>
        </Descriptions>
        <Table
          style={{ marginTop: 16 }}
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={r.classes}
          columns={[
            { title: "Class", dataIndex: "className" },
            { title: "Left Lessons", dataIndex: "leftLessonNo" },
            { title: "Owed Lessons", dataIndex: "oweLessonNo" },
            { title: "Deduction", dataIndex: "deduction", render: money },
            { title: "GST", dataIndex: "gst", render: money },
            { title: "Amount", dataIndex: "amount", render: money },
          ]}
        />
        <Descriptions style={{ marginTop: 16 }} bordered size="small" column={1}>
          <Descriptions.Item label="Credit Notes">{money(r.summary?.creditNoteAmount)}</Descriptions.Item>
          <Descriptions.Item label="Deposits">{money(r.summary?.depositAmount)}</Descriptions.Item>
          <Descriptions.Item label="Total Refund">
            <Typography.Text strong data-testid="voucher-total">
              {money(r.summary?.total)}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      </div>
    </div>
  );
}
