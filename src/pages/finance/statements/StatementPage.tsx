/**
 * /finance/statement/{studentId} (issue 39 §2): the student's statement from the ledger — or the family's, the
 * student and their siblings — as an A4 sheet like the PA paper, with Print, Download PDF and a PayNow QR per
 * outstanding PA. The running balance is the ledger's (what the family owes; negative: in credit).
 */
import { Alert, Select, Space, Spin, Switch, Table } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useParams, useSearchParams } from "react-router";
import { api, rejectionMessage } from "../../../app/api.ts";
import { PAPER_CSS, PaperButtons, PaperCompany } from "../PaperButtons.tsx";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../../domain/dates.ts";
import { formatMoney, numericToCents } from "../../../domain/money.ts";
import type { StatementPaper } from "../../../domain/finance/statement.ts";

const money = (v: string) => formatMoney(numericToCents(v) ?? 0);
const blankOrMoney = (v: string) => (v === "0.00" ? "" : money(v));
const day = (v: string | null) => formatCalendarDay(v, DISPLAY_DATE_FORMAT);

export default function StatementPage() {
  const { studentId } = useParams();
  const [search, setSearch] = useSearchParams();
  const family = search.get("family") === "1";
  const companyId = search.get("companyId") ?? undefined;
  const query = `family=${family ? 1 : 0}${companyId ? `&companyId=${companyId}` : ""}`;
  const { data, isLoading, error } = useQuery({
    queryKey: ["statement", studentId, query],
    queryFn: async () => (await api<StatementPaper>("GET", `/finances/statements/${studentId}?${query}`)).data!,
    enabled: Boolean(studentId),
    retry: false,
  });
  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(search);
    if (value === null) next.delete(key);
    else next.set(key, value);
    setSearch(next, { replace: true });
  };
  if (isLoading) return <Spin size="large" style={{ display: "block", margin: "64px auto" }} />;
  if (!data) return <Alert type="error" message={rejectionMessage(error, "Student not found.")} />;
  const who = data.students[0];
  return (
    <>
      <style>{PAPER_CSS}</style>
      <Space className="pa-no-print" wrap style={{ marginBottom: 8 }}>
        <Switch checked={family} onChange={(on) => set("family", on ? "1" : null)} aria-label="Whole family" /> Whole family (siblings)
        {data.companies.length > 1 && <Select aria-label="Company" style={{ minWidth: 260 }} value={data.company.id} onChange={(v) => set("companyId", v)} options={data.companies.map((c) => ({ value: c.id, label: c.name }))} />}
      </Space>
      <PaperButtons pdfPath={data.pdfUrl.replace(/^\/api\/v2/, "")} fileName={`Statement-${who?.username ?? "student"}-${data.day}`} />
      <div className="pa-paper" data-testid="statement-paper">
        <div className="pa-head">
          <PaperCompany company={data.company} />
          <div style={{ textAlign: "right" }}>
            <h1>{data.family ? "FAMILY STATEMENT" : "STATEMENT OF ACCOUNT"}</h1>
            <div>As at {day(data.day)}</div>
          </div>
        </div>
        <hr />
        <div>
          <strong>{data.students.length > 1 ? "Students" : "Student"}:</strong> {data.students.map((s) => `${s.fullName}${s.username ? ` (${s.username})` : ""}`).join(", ")}
        </div>
        {data.parent && <div><strong>Parent:</strong> {[data.parent.name, data.parent.email, data.parent.phone].filter(Boolean).join(" · ")}</div>}
        <Table
          size="small"
          style={{ marginTop: 12 }}
          pagination={false}
          rowKey="key"
          dataSource={data.rows.map((r, key) => ({ ...r, key }))}
          columns={[
            { title: "Date", dataIndex: "day", render: (v: string) => day(v) },
            { title: "Description", dataIndex: "description" },
            { title: "Document", dataIndex: "documentNumber", render: (v: string | null) => v ?? "--" },
            ...(data.family ? [{ title: "Student", dataIndex: "studentName" }] : []),
            { title: "Charges", dataIndex: "charge", align: "right" as const, render: blankOrMoney },
            { title: "Payments / Credits", dataIndex: "credit", align: "right" as const, render: blankOrMoney },
            { title: "Balance", dataIndex: "balance", align: "right" as const, render: money },
          ]}
        />
        <div style={{ textAlign: "right", marginTop: 8 }}>
          <div data-testid="statement-balance"><strong>Balance due: {money(data.balance)}</strong></div>
          <div>Deposits held: {money(data.depositsHeld)}</div>
        </div>
        {data.payNow.map((p) => (
          <div key={p.paymentAdviceId} style={{ display: "flex", gap: 12, marginTop: 12 }} data-testid="statement-paynow">
            <img src={p.qrCodeDataUrl} alt={`PayNow QR code for ${p.reference}`} width={120} height={120} />
            <div>
              <strong>Pay by PayNow</strong>
              <div>Reference: {p.reference}</div>
              <div>UEN: {p.uen}</div>
              <div>Amount: {money(p.amount)}</div>
              {p.expiry && <div>Valid until {day(p.expiry)}</div>}
            </div>
          </div>
        ))}
      </div>
    </>
  );
}
