/**
 * Issue 32 §4: every e-mail is built by the template mechanism (server/mail/template.ts), which escapes what
 * it is given. A name or class name that holds markup reaches the parents as text (`&lt;a href`), never as a
 * live link, in the three-times-absent e-mail, the news e-mail (its plain-text footer) and the unpaid-PA
 * e-mail; each comes with a plain-text alternative. The evil names are stored as they could have been before
 * the database refused them (the name rule checks changes, so data of old stays).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, userId, type TestServer } from "../support/auth.ts";
import { issuedPa, pickClasses, studentsOf } from "../support/finance.ts";
import { formatDay, todayInSingapore } from "../../src/domain/dates.ts";
import { addCalendarDays } from "../../src/domain/lessonSchedule.ts";

const EVIL = `<a href="https://evil.example/pay">Outstanding fees: click to pay</a>`;
const ESCAPED = `&lt;a href=&quot;https://evil.example/pay&quot;&gt;Outstanding fees: click to pay&lt;/a&gt;`;
/** An element of HTML that a mail client would render (as opposed to escaped text). */
const LIVE_MARKUP = /<(a|b|img|script)[\s>/]/i;

interface MailRow {
  body: string;
  text: string | null;
}

describe.each(databaseLanes())("e-mails escape what they are given [%s]", (lane) => {
  let server: TestServer;
  let ops: string;
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows;
  /** Writes a row as data stored before the name rule (triggers off for this one statement). */
  const storeAsOfOld = (sql: string, params: unknown[]) =>
    server.db.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(sql, params);
    });
  const mails = (where: string, params: unknown[]) => q<MailRow>(`select body, payload->>'text' as text from outbox where ${where} order by "createdAt"`, params);

  beforeAll(async () => {
    server = await startTestServer(lane);
    ops = (await signIn(server.app, "ops_manager")).accessToken;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("the three-times-absent e-mail carries a student name and a class name holding a link as text, with no <a> element", async () => {
    const today = todayInSingapore();
    const [branch] = await q<{ id: string }>(`select id from branches where status = 'active' order by id limit 1`);
    const [program] = await q<{ id: string }>(`select id from programs where status = 'active' order by id limit 1`);
    const [room] = await q<{ id: string }>(`insert into classrooms (name, "branchId") values ('Escaping Room 32', $1) returning id`, [branch!.id]);
    const [cal] = await q<{ id: string }>(`insert into academic_calendars (name, year, category) values ('Past weeks 32', 2026, 'custom') returning id`);
    await q(`insert into terms (name, "startDate", "endDate", "numberOfLessons", "academicCalendarId") values ('T', $1, $2, 6, $3)`, [addCalendarDays(today, -60), today, cal!.id]);
    const dates = [28, 21, 14].map((d) => addCalendarDays(today, -d));
    const hodId = await userId(server.db, "hod");
    const created = await api(server.app, "POST", "/classes", ops, {
      name: "Maths <b>Gold</b>", programId: program!.id, academicCalendarId: cal!.id, branchId: branch!.id, classroomId: room!.id, tutorIds: [hodId],
      startDate: dates[0], customDates: dates, sessions: [{ startTime: "06:00", endTime: "06:30" }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const classId = created.json().data.id as string;
    const [student] = await q<{ id: string }>(`select id from users where type = 'student' and status = 'active' and jsonb_array_length(parents) > 0 order by username limit 1`);
    await storeAsOfOld(`update users set "firstName" = $2, "fullName" = $2 || ' Tan' where id = $1`, [student!.id, EVIL]);
    const enrolled = await api(server.app, "POST", `/classes/${classId}/enrolments`, ops, { studentId: student!.id, lessonStartDate: dates[0] });
    expect(enrolled.statusCode, enrolled.body).toBeLessThan(300);
    const rows = await q<{ lessonId: string; id: string }>(
      `select ls."lessonId", ls.id from lessons_students ls join lessons l on l.id = ls."lessonId" where l."classId" = $1 and ls."studentId" = $2 order by l.date`, [classId, student!.id]);
    const hod = (await signIn(server.app, "hod")).accessToken;
    for (const r of rows) {
      const res = await api(server.app, "PUT", `/classes/attendance/${r.lessonId}`, hod, { students: [{ id: r.id, hasAttended: false }] });
      expect(res.statusCode, res.body).toBe(200);
    }
    const sent = await mails(`payload->>'studentId' = $1 and payload ? 'threeTimesAbsent'`, [student!.id]);
    expect(sent.length).toBeGreaterThan(0);
    for (const mail of sent) {
      expect(mail.body).toContain(`${ESCAPED} Tan was absent from Maths &lt;b&gt;Gold&lt;/b&gt; on`);
      expect(mail.body).not.toMatch(LIVE_MARKUP);
      // the plain-text alternative says the same words, as text
      expect(mail.text).toContain(`Dear parent,\n${EVIL} Tan was absent from Maths <b>Gold</b> on ${dates.map(formatDay).join(", ")}.`);
    }
  });

  it("a news e-mail keeps the message's rich text and escapes its plain-text footer", async () => {
    const sales = (await signIn(server.app, "sales")).accessToken;
    const res = await api(server.app, "POST", "/news", sales, {
      title: "Fees news 32", message: `<p>Term <strong>fees</strong> are out.</p>`, footer: `Reply to the office\n${EVIL}`,
      recipients: [{ name: "Guest", email: "guest.32@example.com" }], uploadedOnly: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [mail] = await mails(`payload->>'newsId' = $1`, [res.json().data.id]);
    expect(mail!.body).toBe(`<p>Term <strong>fees</strong> are out.</p><p>Reply to the office<br>${ESCAPED}</p>`);
    expect(mail!.text).toBe(`Term fees are out.\nReply to the office\n${EVIL}`);
  });

  it("the unpaid-PA e-mail escapes the parent's and the student's names", async () => {
    const [cls] = await pickClasses(server);
    const [studentId] = await studentsOf(server, cls!.companyId, 1);
    await storeAsOfOld(
      `update users set "fullName" = $2, parents = jsonb_build_array(jsonb_build_object('firstName', $2::text, 'lastName', 'Lee', 'email', 'parent.32@example.com', 'primaryContact', true)),
         "firstParent" = jsonb_build_object('firstName', $2::text, 'lastName', 'Lee', 'email', 'parent.32@example.com', 'primaryContact', true) where id = $1`,
      [studentId, EVIL],
    );
    const frontDesk = (await signIn(server.app, "front_desk")).accessToken;
    const pa = await issuedPa(server, frontDesk, cls!, studentId!);
    const res = await api(server.app, "POST", "/finances/email/unpaid-pa-to-parents", frontDesk, { paymentAdviceIds: [pa.id] });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await mails(`payload->>'paymentAdviceId' = $1`, [pa.id]);
    expect(mail!.body).toContain(ESCAPED);
    // the mail's own markup: paragraphs, bold, and the PayNow QR shown inline (issue 35)
    const ownMarkup = mail!.body.replace(/<\/?(p|b)>/g, "").replace(/<img src="cid:paynow-qr" alt="PayNow QR code" width="200" height="200">/, "");
    expect(ownMarkup).not.toMatch(LIVE_MARKUP);
    expect(mail!.text).toContain(EVIL);
  });
});
