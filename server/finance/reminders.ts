/**
 * Overdue reminders (issue 39 §3). Each day, an unpaid PA past its due date gets a reminder e-mail to its
 * student's primary parent on the steps of the schedule in payment settings (reminderSchedule: days after the
 * due date, per company or for all), with the company's late-fee note, through the outbox, logged on the PA.
 * A step is handled once: its row in payment_reminders (unique per PA and step) is claimed in the transaction
 * that queues the e-mail, so two runs — two instances, a rerun the same day — never send it twice. A PA staff
 * hold gets nothing while held. The finance screen lists what tomorrow's run will send.
 */
import type { Db, Queryable } from "../db/index.ts";
import { emailMessage, enqueueMessages } from "../mail/outbox.ts";
import { html, mailBody } from "../mail/template.ts";
import { centsToNumeric, formatMoney } from "../../src/domain/money.ts";
import { dayjs, DATE_FORMAT, formatCalendarDay, DISPLAY_DATE_FORMAT, todayInSingapore } from "../../src/domain/dates.ts";
import { lateFeeNote, parseReminderSchedule, reminderStep, REMINDER_MESSAGES, REMINDER_SETTING_KEY, daysBetween, type UpcomingReminder } from "../../src/domain/finance/reminders.ts";
import { cents } from "./ledger.ts";
import { htmlToText, paperData, primaryParent } from "./paper.ts";
import { paMailParts } from "./email.ts";
import type { PdfMaker } from "./pdfMaker.ts";
import type { MediaService } from "../media/index.ts";
import { writeLog } from "./paymentAdviceRecord.ts";
import { FinanceError, financeTransaction } from "./transaction.ts";
import { startEveryDay } from "./everyDay.ts";

interface Candidate extends UpcomingReminder {
  companyId: string;
  paNotes: string | null;
  parentName: string | null;
  handled: number[];
}

/** The schedule of each company (its own setting, else the one for all); a setting that does not parse counts as none. */
async function schedules(db: Queryable): Promise<(companyId: string) => number[]> {
  const { rows } = await db.query<{ companyId: string | null; days: string | null }>(
    `select distinct on ("companyId") "companyId", value->>'days' as days from system_settings where key = $1 and status = 'active' order by "companyId", "updatedAt" desc`,
    [REMINDER_SETTING_KEY],
  );
  const of = (id: string | null) => parseReminderSchedule(rows.find((r) => r.companyId === id)?.days) ?? [];
  return (companyId) => (rows.some((r) => r.companyId === companyId) ? of(companyId) : of(null));
}

/** Unpaid PAs past their due date on `day` for which a step of the schedule falls due then. */
async function candidates(db: Queryable, day: string): Promise<Array<Candidate & { passed: number[] }>> {
  const scheduleOf = await schedules(db);
  const { rows } = await db.query<Omit<Candidate, "recipient" | "parentName" | "step"> & { parents: Array<Record<string, unknown>> | null; total: string | null; received: string }>(
    `select pa.id as "paymentAdviceId", pa.name, pa."companyId", pa."dueDate"::text as "dueDate", c.name as "companyName", c."paNotes",
       coalesce(nullif(u."fullName", ''), trim(coalesce(u."firstName", '') || ' ' || coalesce(u."lastName", ''))) as "studentName", u.parents,
       pa."paymentSummaryStatic"->>'totalPayable' as total,
       (select coalesce(sum(ip.amount), 0) from invoice_payments ip join invoices i on i.id = ip."invoiceId"
        where i."paymentAdviceId" = pa.id and i."invoiceStatus" <> 'voided' and i.status <> 'deleted' and ip.status <> 'deleted' and ip."transactionStatus" = 'success')::text as received,
       exists (select 1 from payment_reminder_holds h where h."paymentAdviceId" = pa.id and h.status = 'active') as held,
       coalesce((select array_agg(r.step) from payment_reminders r where r."paymentAdviceId" = pa.id), '{}') as handled
     from payment_advices pa join users u on u.id = pa."studentId" join companies c on c.id = pa."companyId"
     where pa."paymentStatus" = 'unpaid' and pa.status <> 'deleted' and pa.name is not null and pa."dueDate" < $1::date
     order by pa."dueDate", pa.name`,
    [day],
  );
  return rows.flatMap((r) => {
    const plan = reminderStep(r.dueDate, day, scheduleOf(r.companyId), new Set(r.handled));
    const balance = cents(r.total) - cents(r.received);
    if (!plan || balance <= 0) return [];
    const parent = primaryParent(r.parents);
    return [{
      paymentAdviceId: r.paymentAdviceId, name: r.name, studentName: r.studentName, companyName: r.companyName, companyId: r.companyId, dueDate: r.dueDate,
      step: plan.send, passed: plan.passed, balance: centsToNumeric(balance), recipient: parent?.email || null, parentName: parent?.name ?? null,
      held: r.held, paNotes: r.paNotes, handled: r.handled,
    }];
  });
}

/** What the run of the day after `today` will send (held PAs included, marked). */
export async function upcomingReminders(db: Queryable, today = todayInSingapore()): Promise<{ day: string; reminders: UpcomingReminder[] }> {
  const day = dayjs(today, DATE_FORMAT).add(1, "day").format(DATE_FORMAT);
  const list = await candidates(db, day);
  return { day, reminders: list.map(({ paymentAdviceId, name, studentName, companyName, dueDate, step, balance, recipient, held }) => ({ paymentAdviceId, name, studentName, companyName, dueDate, step, balance, recipient, held })) };
}

export interface ReminderRun {
  sent: number;
  held: number;
  noEmail: number;
}

/** What a reminder attaches the PA's paper with (the PA e-mail's own parts, email.ts). */
export interface ReminderPaper {
  pdfMaker: PdfMaker;
  media?: MediaService;
}

/**
 * The day's run: each due step claimed and its e-mail queued in one transaction per PA. The e-mail carries the PA as
 * a PDF and its PayNow QR where it has one, made before the transaction (a PDF takes a while; a step already handled
 * by another run meanwhile queues nothing).
 */
export async function sendDueReminders(db: Db, paper: ReminderPaper, day = todayInSingapore()): Promise<ReminderRun> {
  const run: ReminderRun = { sent: 0, held: 0, noEmail: 0 };
  for (const c of await candidates(db, day)) {
    if (c.held) {
      run.held++;
      continue;
    }
    const parts = c.recipient ? await paMailParts(await paperData(db, c.paymentAdviceId), paper.pdfMaker, paper.media) : null;
    await financeTransaction(db, async (tx) => {
      const claimed = await tx.query(
        `insert into payment_reminders ("paymentAdviceId", step, outcome, recipient) values ($1, $2, $3, $4) on conflict ("paymentAdviceId", step) do nothing returning id`,
        [c.paymentAdviceId, c.step, c.recipient ? "sent" : "no_email", c.recipient],
      );
      if (!claimed.rows.length) return;
      await tx.query(
        `insert into payment_reminders ("paymentAdviceId", step, outcome) select $1, s, 'passed' from unnest($2::int[]) s on conflict ("paymentAdviceId", step) do nothing`,
        [c.paymentAdviceId, c.passed],
      );
      if (!c.recipient) {
        run.noEmail++;
        return;
      }
      await enqueueMessages(tx, [reminderMail(c, day, parts!)]);
      await writeLog(tx, c.paymentAdviceId, "update", null, { reminder: { step: c.step, recipient: c.recipient, day } }, null);
      run.sent++;
    });
  }
  return run;
}

function reminderMail(c: Candidate, day: string, parts: Awaited<ReturnType<typeof paMailParts>>) {
  const due = formatCalendarDay(c.dueDate, DISPLAY_DATE_FORMAT);
  const amount = formatMoney(cents(c.balance));
  const note = lateFeeNote(htmlToText(c.paNotes));
  const late = daysBetween(c.dueDate, day);
  const body = mailBody(
    html`<p>Dear ${c.parentName ?? "Parent"},</p><p>Payment advice <b>${c.name}</b> for ${c.studentName} was due on ${due} and ${amount} is still unpaid (${String(late)} days overdue).
      Please pay at your earliest convenience, quoting ${c.name} as the reference; if you have paid in the meantime, please ignore this reminder.</p>${parts.payNow}${note ? html`<p>${note}</p>` : ""}<p>${c.companyName}</p>`,
  );
  return emailMessage(c.recipient!, `Reminder: Payment Advice ${c.name} is overdue`, body, { paymentAdviceId: c.paymentAdviceId, reminderStep: c.step, attachments: parts.attachments });
}

/** The Hold toggle: a held PA gets no reminder until released. */
export async function setReminderHold(db: Db, paymentAdviceId: string, held: boolean, by: string | null): Promise<{ paymentAdviceId: string; held: boolean }> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(`select id from payment_advices where id = $1 and status <> 'deleted'`, [paymentAdviceId]);
    if (!rows.length) throw new FinanceError(404, REMINDER_MESSAGES.notFound);
    await tx.query(
      `insert into payment_reminder_holds ("paymentAdviceId", status, "createdBy", "updatedBy") values ($1, $2, $3, $3)
       on conflict ("paymentAdviceId") do update set status = excluded.status, "updatedBy" = excluded."updatedBy"`,
      [paymentAdviceId, held ? "active" : "deleted", by],
    );
    return { paymentAdviceId, held };
  });
}

/**
 * Runs the day's reminders as each Singapore day begins, as revenue recognition does (not at start: what the
 * screen listed as tomorrow's is what goes out, and a restart sends nothing unannounced); `stop` waits for a run.
 */
export function startDailyReminders(db: Db, paper: ReminderPaper): { stop(): Promise<void> } {
  return startEveryDay((today) =>
    sendDueReminders(db, paper, today).then(
      (r) => r.sent && console.log(`Reminders: ${r.sent} overdue reminders queued for ${today}.`),
      (e: unknown) => console.error("Overdue reminders failed:", e instanceof Error ? e.message : e),
    ),
  );
}
