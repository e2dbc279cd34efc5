/** The recipient part of the broadcast and news forms: recipient type, company and filters. */
import { Col, Form, Row, Select } from "antd";
import { RelationSelect } from "../../framework/inputs/RelationSelect.tsx";
import { RECIPIENT_TYPES } from "../../domain/communication.ts";

export function RecipientFields() {
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item name="recipientType" label="Recipient Type" htmlFor="field-recipientType" rules={[{ required: true, message: "Please select recipient type!" }]}>
          <Select id="field-recipientType" options={Object.entries(RECIPIENT_TYPES).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="companyId" label="Company">
          <RelationSelect target="companies" />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name={["filterRecipient", "branchIds"]} label="Branches">
          <RelationSelect target="branches" many />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name={["filterRecipient", "levelIds"]} label="Levels">
          <RelationSelect target="levels" many />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name={["filterRecipient", "classIds"]} label="Classes">
          <RelationSelect target="classes" many />
        </Form.Item>
      </Col>
    </Row>
  );
}

/** Drops empty filter lists so the server sees only the filters chosen. */
export function cleanFilter(filter: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filter ?? {}).filter(([, v]) => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined)));
}
