/**
 * /finance/reminders (issue 39 §3): the overdue reminders tomorrow's run will e-mail (the schedule is in Payment
 * Setting), each with a Hold toggle: a held PA gets no reminder until released.
 */
import { Alert, Card, Switch, Table } from "antd";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, rejectionMessage } from "../../../app/api.ts";
import { toast } from "../../../framework/toast.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../../domain/dates.ts";
import { formatMoney, numericToCents } from "../../../domain/money.ts";

import type { UpcomingReminder as Upcoming } from "../../../domain/finance/reminders.ts";

const day = (v: string) => formatCalendarDay(v, DISPLAY_DATE_FORMAT);

export default function RemindersPage() {
  const client = useQueryClient();
  const { data, isLoading, error } = useQuery({
    queryKey: ["reminders-upcoming"],
    queryFn: async () => (await api<{ day: string; reminders: Upcoming[] }>("GET", "/finances/reminders/upcoming")).data!,
    retry: false,
  });
  const hold = async (r: Upcoming, held: boolean) => {
    try {
      await api("PUT", `/finances/reminders/${r.paymentAdviceId}/hold`, { held });
      void toast.success(held ? `Reminders of ${r.name} held.` : `Reminders of ${r.name} released.`);
      await client.invalidateQueries({ queryKey: ["reminders-upcoming"] });
    } catch (err) {
      void toast.error(rejectionMessage(err, "The hold could not be saved."));
    }
  };
  if (error) return <Alert type="error" message={rejectionMessage(error, "The reminders could not be loaded.")} />;
  return (
    <Card title={`Payment Reminders${data ? ` to be sent on ${day(data.day)}` : ""}`}>
      <Table
        loading={isLoading}
        rowKey="paymentAdviceId"
        dataSource={data?.reminders ?? []}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        locale={{ emptyText: "No overdue reminders to send tomorrow." }}
        columns={[
          { title: "PA No.", dataIndex: "name", render: (v: string, r: Upcoming) => <Link to={`/finance/payment-advice/paper/${r.paymentAdviceId}`}>{v}</Link> },
          { title: "Student", dataIndex: "studentName" },
          { title: "Company", dataIndex: "companyName" },
          { title: "Due Date", dataIndex: "dueDate", render: day },
          { title: "Days Overdue", dataIndex: "step" },
          { title: "Balance Due", dataIndex: "balance", align: "right" as const, render: (v: string) => formatMoney(numericToCents(v) ?? 0) },
          { title: "Parent E-mail", dataIndex: "recipient", render: (v: string | null) => v ?? "No e-mail: not sent" },
          { title: "Hold", dataIndex: "held", render: (v: boolean, r: Upcoming) => <Switch checked={v} aria-label={`Hold ${r.name}`} onChange={(on) => void hold(r, on)} /> },
        ]}
      />
    </Card>
  );
}
