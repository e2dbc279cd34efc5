/** The printable sheets (PA paper, receipt): A4 print styles, Print and Download PDF. */
import { Button, Space } from "antd";
import { toast } from "../../framework/toast.ts";
import { DownloadOutlined, PrinterOutlined } from "@ant-design/icons";
import { useState } from "react";
import { rejectionMessage } from "../../app/api.ts";
import { downloadPdf } from "./downloadPdf.ts";

/** A4 on paper: only the sheet prints, without the app's menu and header. */
export const PAPER_CSS = `
.pa-paper { box-sizing: border-box; width: 210mm; min-height: 297mm; margin: 0 auto; padding: 14mm; background: #fff; color: #000; box-shadow: 0 0 8px rgba(0,0,0,.15); font-size: 12px; overflow-wrap: anywhere; }
.pa-paper .pa-notes, .pa-paper .pa-notes * { max-width: 100%; white-space: normal; overflow-wrap: anywhere; }
.pa-paper .pa-notes img { height: auto; }
.pa-paper .pa-notes pre { white-space: pre-wrap; }
.pa-paper .pa-lines th, .pa-paper .pa-lines td { padding: 3px 4px; border-bottom: 1px solid #e5e5e5; text-align: left; }
.pa-paper .pa-lines th:nth-child(n+3), .pa-paper .pa-lines td:nth-child(n+3) { text-align: right; }
.pa-paper .pa-lines .pa-line-total td { font-weight: 600; }
.pa-paper h1 { font-size: 20px; margin: 0; }
.pa-paper table { width: 100%; border-collapse: collapse; }
.pa-paper .pa-head { display: flex; justify-content: space-between; gap: 16px; align-items: flex-start; }
.pa-paper .pa-logo { max-height: 64px; max-width: 200px; }
.pa-paper .pa-figures td { padding: 2px 0; }
.pa-paper .pa-figures td:last-child { text-align: right; }
@media print {
  @page { size: A4; margin: 0; }
  body * { visibility: hidden !important; }
  .pa-paper, .pa-paper * { visibility: visible !important; }
  .pa-paper { position: absolute; left: 0; top: 0; box-shadow: none; }
  .pa-no-print { display: none !important; }
}`;

export function PaperButtons({ pdfPath, fileName }: { pdfPath: string; fileName: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Space className="pa-no-print" style={{ marginBottom: 16 }}>
      <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
        Print
      </Button>
      <Button
        type="primary"
        icon={<DownloadOutlined />}
        loading={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await downloadPdf(pdfPath, fileName);
          } catch (err) {
            void toast.error(rejectionMessage(err, "The PDF could not be downloaded."));
          } finally {
            setBusy(false);
          }
        }}
      >
        Download PDF
      </Button>
    </Space>
  );
}

interface SheetCompany { name: string; logoUrl: string | null; address: string | null; uen: string | null; hasGstNo: boolean | null; gstRefNo: string | null; telNo: string | null }

/** The company block at the head of a sheet. */
export function PaperCompany({ company }: { company: SheetCompany }) {
  return (
    <div>
      {company.logoUrl && <img className="pa-logo" src={company.logoUrl} alt={company.name} />}
      <h1>{company.name}</h1>
      {company.address && <div>{company.address}</div>}
      {company.uen && <div>UEN: {company.uen}</div>}
      {company.hasGstNo && company.gstRefNo && <div>GST Reg No.: {company.gstRefNo}</div>}
      {company.telNo && <div>Tel: {company.telNo}</div>}
    </div>
  );
}
