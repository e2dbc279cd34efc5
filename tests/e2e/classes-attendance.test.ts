/**
 * Classes and attendance in a real browser (issue 13): an ops_manager creates a class whose lessons are
 * generated from its calendar and enrols two students; a fulltime_tutor marks attendance while a front desk's
 * monitor updates without a reload; a parttime_tutor cannot see another tutor's lesson (the page finds nothing,
 * and the server's GraphQL answer is empty).
 */
import { describe, expect, it } from "vitest";
import { e2eServer } from "../support/e2e-server.ts";
import { useBrowser } from "../support/browser.ts";
import { addCalendarDays } from "../../src/domain/lessonSchedule.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { pick, stamp, typeDate, withRole } from "./catalogue-support.ts";
import { apiClient } from "./api-support.ts";

const { baseUrl: baseURL } = e2eServer();
const browser = useBrowser();

const { tokenOf, gql, rest } = apiClient(baseURL);

describe("classes and attendance", () => {
  let fulltimeLessonId = "";

  it("an ops_manager creates a class with generated lessons and enrols two students", async () => {
    const ops = await tokenOf("ops_manager");
    const { academic_calendars: [calendar] } = await gql<{ academic_calendars: { name: string; terms: { startDate: string }[] }[] }>(ops,
      `{ academic_calendars(where: {category: {_eq: "weekly"}, status: {_eq: "active"}, terms: {numberOfLessons: {_gt: 0}}}, order_by: {name: asc}, limit: 1) { name terms(order_by: {startDate: asc}, limit: 1) { startDate } } }`);
    const { users: students } = await gql<{ users: { fullName: string }[] }>(ops,
      `{ users(where: {type: {_eq: "student"}, status: {_eq: "active"}}, order_by: {fullName: asc}, limit: 2) { fullName } }`);
    const name = `E2E Class ${stamp()}`;
    await withRole(browser(), baseURL, "ops_manager", async (page) => {
      await page.goto("/class/management");
      await page.getByRole("button", { name: "Create Class" }).click();
      await page.waitForURL("**/class/management/create");
      await page.getByLabel("Class Name").waitFor();
      await pick(page, "programId");
      await page.getByLabel("Class Name").fill(name);
      await pick(page, "academicCalendarId", calendar!.name);
      await typeDate(page.getByLabel("First Lesson Date"), calendar!.terms[0]!.startDate);
      const times = page.locator(".ant-picker-range input");
      await times.nth(0).click();
      await times.nth(0).fill("22:00");
      await times.nth(0).press("Enter");
      await times.nth(1).fill("23:00");
      await times.nth(1).press("Enter");
      await pick(page, "branchId");
      await pick(page, "classroomId");
      await pick(page, "tutorIds");
      expect(await page.getByLabel("Class Size").inputValue()).toBe("20");
      expect(await page.getByLabel("Total Loop").inputValue()).toBe("1");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await page.waitForURL(/\/class\/management\/[0-9a-f-]+\/view$/);
      await page.getByText(name).first().waitFor();
      await page.getByTestId("class-lessons").locator(".ant-table-row").first().waitFor();
      // a new class: Waiting before its first lesson, Expired from it on
      expect(await page.getByTestId("availability").textContent()).toBe(calendar!.terms[0]!.startDate > todayInSingapore() ? "Waiting" : "Expired");
      for (const s of students) {
        await page.getByRole("button", { name: "Enrol Student" }).click();
        // not pick(): its closing Escape would also close the dialog
        await page.locator("#enrol-student").fill(s.fullName);
        await page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: s.fullName }).first().click();
        await page.getByRole("button", { name: "Enrol", exact: true }).click();
        await page.getByTestId("class-students").getByText(s.fullName).waitFor();
      }
      await page.waitForFunction(() => document.querySelector('[data-testid="enrolled-count"]')?.textContent === "2/20");
      await page.goto("/class/management");
      await page.getByRole("link", { name }).waitFor();
    });
  });

  it("a fulltime_tutor marks attendance and a front desk's monitor updates without a reload", async () => {
    const ops = await tokenOf("ops_manager");
    const today = todayInSingapore();
    const { insert_academic_calendars_one: cal } = await gql<{ insert_academic_calendars_one: { id: string } }>(ops,
      `mutation($o: academic_calendars_insert_input!) { insert_academic_calendars_one(object: $o) { id } }`,
      { o: { name: `E2E Today ${stamp()}`, year: Number(today.slice(0, 4)), category: "custom", terms: { data: [{ name: "T", startDate: addCalendarDays(today, -7), endDate: addCalendarDays(today, 7), numberOfLessons: 2 }] } } });
    const { users: [tutor] } = await gql<{ users: { id: string }[] }>(ops, `{ users(where: {username: {_eq: "fulltime_tutor"}}) { id } }`);
    const { classrooms: [room] } = await gql<{ classrooms: { id: string; branchId: string }[] }>(ops, `{ classrooms(where: {status: {_eq: "active"}}, order_by: {name: desc}, limit: 1) { id branchId } }`);
    const { programs: [program] } = await gql<{ programs: { id: string }[] }>(ops, `{ programs(where: {status: {_eq: "active"}}, order_by: {name: asc}, limit: 1) { id } }`);
    const created = await rest<{ id: string }>(ops, "POST", "/classes", {
      name: `E2E Today ${stamp()}`, programId: program!.id, academicCalendarId: cal.id, branchId: room!.branchId, classroomId: room!.id,
      tutorIds: [tutor!.id], startDate: today, customDates: [today], sessions: [{ startTime: "23:00", endTime: "23:30" }],
    });
    const { users: students } = await gql<{ users: { id: string }[] }>(ops, `{ users(where: {type: {_eq: "student"}, status: {_eq: "active"}}, order_by: {username: desc}, limit: 2) { id } }`);
    for (const s of students) await rest(ops, "POST", `/classes/${created.id}/enrolments`, { studentId: s.id });
    const { lessons: [lesson] } = await gql<{ lessons: { id: string }[] }>(ops, `{ lessons(where: {classId: {_eq: "${created.id}"}}) { id } }`);
    fulltimeLessonId = lesson!.id;

    await withRole(browser(), baseURL, "front_desk", async (monitor) => {
      await monitor.goto("/attendance/monitor");
      const cell = monitor.getByTestId(`monitor-attended-${lesson!.id}`);
      await cell.waitFor();
      expect(await cell.textContent()).toBe("0/2");
      await withRole(browser(), baseURL, "fulltime_tutor", async (page) => {
        await page.goto("/attendance/list");
        await page.getByTestId("attendance-list").waitFor();
        await page.goto(`/attendance/detail/${lesson!.id}`);
        await page.getByTestId("attendance-students").locator(".ant-table-row").nth(1).waitFor();
        await page.getByRole("button", { name: "Mark all present" }).click();
        await page.getByText("Attendance saved (2 changed).").waitFor();
      });
      // no reload: the subscription brings the tutor's marks
      await monitor.waitForFunction((id) => document.querySelector(`[data-testid="monitor-attended-${id}"]`)?.textContent === "2/2", lesson!.id, { timeout: 20_000 });
    });
  });

  it("a parttime_tutor cannot see another tutor's lesson: not in the page, not from the server", async () => {
    expect(fulltimeLessonId).not.toBe("");
    const parttime = await tokenOf("parttime_tutor");
    const answer = await gql<{ lessons_by_pk: unknown; lessons_students: unknown[] }>(parttime,
      `{ lessons_by_pk(id: "${fulltimeLessonId}") { id } lessons_students(where: {lessonId: {_eq: "${fulltimeLessonId}"}}) { id } }`);
    expect(answer).toEqual({ lessons_by_pk: null, lessons_students: [] });
    await withRole(browser(), baseURL, "parttime_tutor", async (page) => {
      await page.goto(`/attendance/detail/${fulltimeLessonId}`);
      await page.getByText("Lesson not found").waitFor();
      expect(await page.getByRole("button", { name: "Mark all present" }).count()).toBe(0);
    });
  });

  it.each(["attendance_checker", "hod", "multi_role"])("%s lands on the attendance list, not on the not-found screen", async (username) => {
    await withRole(browser(), baseURL, username, async (page) => {
      await page.waitForURL((u) => u.pathname === "/attendance/list");
      await page.getByTestId("attendance-list").waitFor();
      expect(await page.getByTestId("not-found").count()).toBe(0);
    });
  });
});
