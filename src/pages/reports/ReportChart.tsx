/** A report's bar chart (recharts), its own chunk: pages without a chart never load it. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "../../domain/money.ts";
import type { ReportResult } from "../../domain/reports.ts";

export default function ReportChart({ chart }: { chart: NonNullable<ReportResult["chart"]> }) {
  return (
    <div style={{ width: "100%", height: 260 }} data-testid="report-chart" aria-label={chart.title}>
      <ResponsiveContainer>
        <BarChart data={chart.data} margin={{ top: 8, right: 16, bottom: 8, left: 16 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="category" />
          <YAxis tickFormatter={(v: number) => formatMoney(Math.round(v * 100))} width={96} />
          <Tooltip formatter={(v) => formatMoney(Math.round(Number(v) * 100))} />
          <Bar dataKey="value" name={chart.value} fill="#1677ff" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
