/**
 * Payment Information (spec part 2 §2, §5): PA reference, status badge, optional AXS code, company, issue
 * date, due date, issued branch, QR expiry date and the 'Log history' link, with the spec's messages and
 * date rules (issue ≤ due; QR expiry after today).
 */
import { Card, Col, Form, Input, Row, Space, Typography } from "antd";
import { DateInput } from "../../../framework/inputs/DateInputs.tsx";
import type { Dayjs } from "dayjs";
import { RelationSelect } from "../../../framework/inputs/RelationSelect.tsx";
import { dayjs, todayInSingapore } from "../../../domain/dates.ts";
import { PaStatusPill } from "../PaStatusPill.tsx";
import { LogHistory } from "../LogHistory.tsx";
import { paDisplayName, paLogSource } from "../paLogSource.ts";

export const DATE_RULE_MESSAGES = {
  issueAfterDue: "The issue date cannot be after the due date.",
  dueBeforeIssue: "The due date cannot be before the issue date.",
  qrExpiry: "The QR expiry date must be after today.",
} as const;

export interface PaymentInformationProps {
  paId: string | null;
  name: string | null;
  paymentStatus: string;
  dueDate: string | null;
  disabled: boolean;
  /** The company cannot change once classes of it are on the PA. */
  companyLocked: boolean;
  /** Branches offered are the company's. */
  companyId: string | null;
  isLogDetail?: boolean;
}

export function PaymentInformation({ paId, name, paymentStatus, dueDate, disabled, companyLocked, companyId, isLogDetail }: PaymentInformationProps) {
  const today = todayInSingapore();
  return (
    <Card title="Payment Information" size="small">
      <Space style={{ marginBottom: 12 }} wrap>
        <Typography.Text strong data-testid="pa-reference">
          {paDisplayName(name)}
        </Typography.Text>
        <PaStatusPill paymentStatus={paymentStatus} dueDate={dueDate} />
        <LogHistory source={paLogSource(name)} parentId={paId} isLogDetail={isLogDetail} />
      </Space>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="axsCode" label="AXS Code">
            <Input disabled={disabled} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="companyId" label="Company" rules={[{ required: true, message: "Please select company!" }]}>
            <RelationSelect target="companies" disabled={disabled || companyLocked} placeholder="Company" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="branchId" label="Issued Branch" rules={[{ required: true, message: "Please select branch!" }]}>
            <RelationSelect target="branches" where={companyId ? { companyId: { _eq: companyId } } : undefined} disabled={disabled || !companyId} placeholder="Issued Branch" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="issueDate"
            label="Issue Date"
            dependencies={["dueDate"]}
            rules={[
              { required: true, message: "Please select issue date!" },
              ({ getFieldValue }) => ({
                validator: (_r, v: Dayjs | null) => {
                  const due = getFieldValue("dueDate") as Dayjs | null;
                  return v && due && v.isAfter(due, "day") ? Promise.reject(new Error(DATE_RULE_MESSAGES.issueAfterDue)) : Promise.resolve();
                },
              }),
            ]}
          >
            <DateInput disabled={disabled} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="dueDate"
            label="Due Date"
            dependencies={["issueDate"]}
            rules={[
              // The spec gives the due date the issue date's message.
              { required: true, message: "Please select issue date!" },
              ({ getFieldValue }) => ({
                validator: (_r, v: Dayjs | null) => {
                  const issue = getFieldValue("issueDate") as Dayjs | null;
                  return v && issue && v.isBefore(issue, "day") ? Promise.reject(new Error(DATE_RULE_MESSAGES.dueBeforeIssue)) : Promise.resolve();
                },
              }),
            ]}
          >
            <DateInput disabled={disabled} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="qrExpiryDate"
            label="QR Expiry Date"
            rules={[
              { required: true, message: "Please QR Expiry Date!" },
              {
                validator: (_r, v: Dayjs | null) =>
                  v && !v.isAfter(dayjs(today, "YYYY-MM-DD"), "day") ? Promise.reject(new Error(DATE_RULE_MESSAGES.qrExpiry)) : Promise.resolve(),
              },
            ]}
          >
            <DateInput disabled={disabled} style={{ width: "100%" }} disabledDate={(d) => !d.isAfter(dayjs(today, "YYYY-MM-DD"), "day")} />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}
