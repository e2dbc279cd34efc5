/**
 * /finance/ledger-export (issue 39 §4): a company's ledger for a date range as Xero's manual journal import or as a
 * plain CSV of journal lines. Account codes are set in Payment Setting (Ledger Account Codes).
 */
import { Button, Card, DatePicker, Form, Select, Space } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { useState } from "react";
import type { Dayjs } from "dayjs";
import { rejectionMessage } from "../../../app/api.ts";
import { toast } from "../../../framework/toast.ts";
import { DATE_FORMAT, DISPLAY_DATE_FORMAT, dayjs } from "../../../domain/dates.ts";
import { downloadFile } from "../../../framework/download.ts";
import { useCompanyChoice } from "../useCompanyChoice.ts";

export default function LedgerExportPage() {
  const { companies, companyId, setCompanyId } = useCompanyChoice();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(1, "month").startOf("month"), dayjs().subtract(1, "month").endOf("month")]);
  const [busy, setBusy] = useState<string>();
  const download = async (format: "xero" | "lines") => {
    const company = companies.find((c) => c.id === companyId);
    if (!company) return void toast.error("Please select a company.");
    const [from, to] = range.map((d) => d.format(DATE_FORMAT));
    setBusy(format);
    const path = `/finances/ledger-export?companyId=${company.id}&from=${from}&to=${to}&format=${format}`;
    const name = `${company.shortName ?? "ledger"}-${from}-${to}-${format === "xero" ? "xero-manual-journals" : "journal-lines"}`;
    try {
      await downloadFile(path, `${name}.csv`);
    } catch (err) {
      // more lines than Xero imports in one file: the server says how many parts; each is saved in turn
      const parts = Number((err as { errors?: { parts?: string } } | null)?.errors?.parts);
      if (!parts) return void toast.error(rejectionMessage(err, "The export could not be made."));
      void toast.info(rejectionMessage(err, ""));
      try {
        for (let part = 1; part <= parts; part++) await downloadFile(`${path}&part=${part}`, `${name}-part-${part}-of-${parts}.csv`);
      } catch (partErr) {
        void toast.error(rejectionMessage(partErr, "The export could not be made."));
      }
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <Card title="Accounting Export">
      <Form layout="vertical" style={{ maxWidth: 520 }}>
        <Form.Item label="Company" required>
          <Select aria-label="Company" value={companyId} onChange={setCompanyId} options={companies.map((c) => ({ value: c.id, label: c.name }))} placeholder="Select a company" />
        </Form.Item>
        <Form.Item label="Journal dates" required>
          <DatePicker.RangePicker format={DISPLAY_DATE_FORMAT} allowClear={false} value={range} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
        </Form.Item>
        <Space>
          <Button type="primary" icon={<DownloadOutlined />} loading={busy === "xero"} onClick={() => void download("xero")}>
            Xero Manual Journals (CSV)
          </Button>
          <Button icon={<DownloadOutlined />} loading={busy === "lines"} onClick={() => void download("lines")}>
            Journal Lines (CSV)
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
