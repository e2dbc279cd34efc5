/**
 * The import step of /finance/bank-reconciliation: choose the bank and the file (CSV or Excel), then say which
 * columns hold the date, description, reference and credit amount — filled in from the bank's last import,
 * else guessed from the headings — and import. The server reads the file both times; the browser only sends it.
 */
import { Button, Card, Form, Input, Select, Space, Table, Typography, Upload } from "antd";
import { UploadOutlined } from "@ant-design/icons";
import { useState } from "react";
import { api, rejectionMessage } from "../../../app/api.ts";
import { toast } from "../../../framework/toast.ts";
import { BANK_MESSAGES, type BankMapping } from "../../../domain/finance/bankStatement.ts";

interface Preview {
  headers: string[];
  sample: string[][];
  mapping: BankMapping | null;
  banks: string[];
}

interface ImportReply {
  imported: number;
  duplicates: number;
  skipped: number;
}

const guess = (headers: string[], pattern: RegExp) => headers.find((h) => pattern.test(h)) ?? null;

/** The headings most exports use, as a first guess when the bank has no remembered mapping. */
function guessMapping(headers: string[]): Partial<BankMapping> {
  return {
    dateColumn: guess(headers, /date/i) ?? undefined,
    descriptionColumn: guess(headers, /desc|particular|narrative|detail/i),
    referenceColumn: guess(headers, /ref/i),
    creditColumn: guess(headers, /credit|deposit|money in/i) ?? undefined,
  };
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function StatementImport({ companyId, onImported }: { companyId: string | undefined; onImported: () => void }) {
  const [bank, setBank] = useState("");
  const [file, setFile] = useState<{ fileName: string; fileBase64: string } | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<BankMapping>();

  const loadPreview = async (chosen: { fileName: string; fileBase64: string }, bankName: string) => {
    setBusy(true);
    try {
      const data = (await api<Preview>("POST", "/finances/bank-reconciliation/preview", { bank: bankName.trim() || null, ...chosen })).data!;
      setPreview(data);
      form.setFieldsValue({ ...guessMapping(data.headers), ...(data.mapping ?? {}) });
    } catch (err) {
      setPreview(null);
      void toast.error(rejectionMessage(err, BANK_MESSAGES.fileUnreadable));
    } finally {
      setBusy(false);
    }
  };

  const choose = async (picked: File) => {
    const chosen = { fileName: picked.name, fileBase64: await readBase64(picked) };
    setFile(chosen);
    await loadPreview(chosen, bank);
  };

  // The bank may be typed after the file is chosen: its remembered mapping then applies as well.
  const bankChosen = () => {
    if (file && bank.trim()) void loadPreview(file, bank);
  };

  const submit = async (mapping: BankMapping) => {
    if (!companyId) return void toast.error(BANK_MESSAGES.company);
    if (!bank.trim()) return void toast.error(BANK_MESSAGES.bank);
    if (!file) return void toast.error(BANK_MESSAGES.file);
    setBusy(true);
    try {
      const r = (await api<ImportReply>("POST", "/finances/bank-reconciliation/import", {
        companyId,
        bank: bank.trim(),
        ...file,
        mapping: { ...mapping, descriptionColumn: mapping.descriptionColumn ?? null, referenceColumn: mapping.referenceColumn ?? null },
      })).data!;
      void toast.success(`Imported ${r.imported} credit lines; ${r.duplicates} already imported; ${r.skipped} debit or blank lines skipped.`);
      setPreview(null);
      setFile(null);
      onImported();
    } catch (err) {
      void toast.error(rejectionMessage(err, "The bank statement could not be imported."));
    } finally {
      setBusy(false);
    }
  };

  const columnOptions = (preview?.headers ?? []).filter(Boolean).map((h) => ({ value: h, label: h }));
  return (
    <Card title="Import a bank statement" size="small">
      <Space wrap>
        <Input aria-label="Bank" placeholder="Bank (e.g. DBS)" style={{ width: 200 }} value={bank} onChange={(e) => setBank(e.target.value)} onBlur={bankChosen} list="known-banks" maxLength={100} />
        <datalist id="known-banks">
          {(preview?.banks ?? []).map((b) => (
            <option key={b} value={b} />
          ))}
        </datalist>
        <Upload
          accept=".csv,.xlsx"
          maxCount={1}
          showUploadList={false}
          beforeUpload={(f) => {
            void choose(f);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy && !preview}>
            {file ? file.fileName : "Choose CSV or Excel file"}
          </Button>
        </Upload>
      </Space>
      {preview && (
        <Form form={form} layout="inline" onFinish={(v) => void submit(v)} style={{ marginTop: 12, rowGap: 8 }}>
          <Form.Item name="dateColumn" label="Date" rules={[{ required: true, message: BANK_MESSAGES.dateColumn }]}>
            <Select options={columnOptions} style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="descriptionColumn" label="Description">
            <Select allowClear options={columnOptions} style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="referenceColumn" label="Reference">
            <Select allowClear options={columnOptions} style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="creditColumn" label="Credit amount" rules={[{ required: true, message: BANK_MESSAGES.creditColumn }]}>
            <Select options={columnOptions} style={{ width: 170 }} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={busy}>
              Import
            </Button>
          </Form.Item>
        </Form>
      )}
      {preview && (
        <>
          <Typography.Text type="secondary" style={{ display: "block", marginTop: 12 }}>
            The first lines of the file:
          </Typography.Text>
          <Table
            size="small"
            pagination={false}
            scroll={{ x: true }}
            rowKey={(_, i) => String(i)}
            dataSource={preview.sample.map((cells) => Object.fromEntries(cells.map((c, i) => [String(i), c])))}
            columns={preview.headers.map((h, i) => ({ title: h, dataIndex: String(i), key: String(i) }))}
          />
        </>
      )}
    </Card>
  );
}
