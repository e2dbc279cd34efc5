/**
 * Demo data (issue 2 §4): a small but complete centre group, one demo account per role, created
 * once in one transaction. Deterministic (seeded PRNG), dates relative to the current year.
 */
import type { Db, Queryable } from "./types.ts";
import { hashPassword } from "../auth/passwords.ts";
import { Rng, insertRows, money, percentOf, day, addDays, weekday, todaySg, sgTime, type Row } from "./seed-util.ts";
import { numericToCents } from "../../src/domain/money.ts";
import type { DiscountRule } from "../../src/domain/finance/discounts.ts";
import { computePaymentAdvice, type ClassInformationEntry } from "../../src/domain/finance/paymentAdvice.ts";
import { classInformationToStored, summaryToWire } from "../../src/domain/finance/paymentAdviceApi.ts";
import type { GstPercent } from "../../src/domain/finance/summary.ts";
import { creditNoteTotals } from "../../src/domain/finance/creditNote.ts";
import { backfillLedger } from "../finance/ledgerBackfill.ts";
import { REMINDER_SETTING_KEY } from "../../src/domain/finance/reminders.ts";
import { ACCOUNT_CODE_SETTING_KEY, DEFAULT_ACCOUNT_CODES, DEFAULT_TAX_RATE } from "../../src/domain/finance/accountingExport.ts";

export const DEMO_PASSWORD = "Demo@12345";
export const DEMO_EMAIL_DOMAIN = "demo.centre.sg";

export const STAFF_ROLES = [
  "admin", "front_desk", "ops_manager", "hr", "finance_staff", "finance_manager",
  "attendance_checker", "sales", "intern", "fulltime_tutor", "parttime_tutor", "hod",
] as const;
export const ACCOUNT_ROLES = ["student", "parent", "tutor"] as const;

const ROLE_LABEL: Record<string, string> = {
  admin: "Admin", front_desk: "Front Desk", ops_manager: "Ops Manager", hr: "HR", finance_staff: "Finance Staff",
  finance_manager: "Finance Manager", attendance_checker: "Attendance Checker", sales: "Sales", intern: "Intern",
  fulltime_tutor: "Full-time Tutor", parttime_tutor: "Part-time Tutor", hod: "Head of Department",
  student: "Student", parent: "Parent", tutor: "Tutor",
};
const ROLE_ABBR: Record<string, string> = {
  admin: "AD", front_desk: "FD", ops_manager: "OM", hr: "HR", finance_staff: "FS", finance_manager: "FM",
  attendance_checker: "AC", sales: "SA", intern: "IN", fulltime_tutor: "FT", parttime_tutor: "PT", hod: "HOD",
  student: "ST", parent: "PA", tutor: "TU",
};
/** Home pages of spec part 1 §2 (for the printed table only). */
const HOME: Record<string, string> = {
  admin: "/company", front_desk: "/student-management", ops_manager: "/branch", hr: "/user",
  finance_staff: "/student-management", finance_manager: "/student-management", intern: "/student-management",
  attendance_checker: "/attendance/list", fulltime_tutor: "/attendance/list", parttime_tutor: "/attendance/list",
  hod: "/attendance/list", sales: "/communication/broadcast",
};

export interface DemoAccount {
  username: string;
  roles: string[];
  email: string;
}

export function demoAccounts(): DemoAccount[] {
  const list: DemoAccount[] = STAFF_ROLES.map((r) => ({ username: r, roles: [r], email: `${r}@${DEMO_EMAIL_DOMAIN}` }));
  list.push({ username: "multi_role", roles: ["front_desk", "hod"], email: `multi_role@${DEMO_EMAIL_DOMAIN}` });
  return list;
}

/** A readable table of the demo accounts, printed by `npm start`. */
export function demoAccountsText(): string {
  const rows = demoAccounts().map((a) => {
    // Later rules of the home-page table win (spec part 1 §2): the last matching role in table order.
    const order = ["admin", "front_desk", "ops_manager", "hr", "finance_staff", "finance_manager", "intern", "attendance_checker", "fulltime_tutor", "parttime_tutor", "hod", "sales"];
    let home = "";
    for (const r of order) if (a.roles.includes(r) && HOME[r]) home = HOME[r];
    return [a.username, a.roles.join(", "), DEMO_PASSWORD, home];
  });
  const header = ["Username", "Roles", "Password", "Home page"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => "| " + cells.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |";
  const sep = "|-" + widths.map((w) => "-".repeat(w)).join("-|-") + "-|";
  return ["Demo accounts (all with password " + DEMO_PASSWORD + "):", line(header), sep, ...rows.map(line)].join("\n");
}

/** True when the demo data (or any company) is already there. */
export async function hasDemoData(db: Queryable): Promise<boolean> {
  const r = await db.query<{ n: number }>(
    "select ((select count(*) from companies) + (select count(*) from users where lower(username) = 'admin'))::int as n",
  );
  return r.rows[0].n > 0;
}

const FIRST = ["Wei Ming", "Jia Hui", "Arjun", "Siti", "Ethan", "Chloe", "Darren", "Priya", "Marcus", "Hui Min", "Ryan", "Nur Aisyah",
  "Javier", "Xin Yi", "Kumar", "Megan", "Isaac", "Shu Fen", "Aaron", "Farah", "Bryan", "Kai Xuan", "Dylan", "Rachel", "Zhi Hao", "Aisha",
  "Gabriel", "Li Ting", "Hafiz", "Natalie", "Joel", "Yu Xuan", "Amir", "Sophia", "Jun Jie", "Clara"];
const LAST = ["Tan", "Lim", "Lee", "Ng", "Ong", "Wong", "Goh", "Chua", "Koh", "Teo", "Ang", "Yeo", "Tay", "Ho", "Low", "Sim", "Chong",
  "Kumar", "Rahman", "Pillai", "Abdullah", "Fernandez", "Singh", "Chen"];
const OCCUPATIONS = ["Engineer", "Teacher", "Accountant", "Nurse", "Manager", "Business owner", "Civil servant", "Doctor", "Designer", "Homemaker"];

function slug(s: string) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "");
}
function phone(rng: Rng) {
  return { code: "+65", number: String(rng.pick([8, 9])) + String(rng.int(1000000, 9999999)) };
}

export interface DemoSummary {
  companies: number;
  branches: number;
  classrooms: number;
  classes: number;
  students: number;
  staff: number;
}

/**
 * Creates the demo data when missing. Returns false (and changes nothing) when it is already there.
 * Everything is written in one transaction.
 */
export async function seedDemo(db: Db, options: { now?: Date } = {}): Promise<boolean> {
  if (await hasDemoData(db)) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD); // once: argon2 is slow on purpose
  const created = await db.transaction(async (tx) => {
    if (await hasDemoData(tx)) return false;
    // a data load, not anyone's change: the audit trail (issue 36) starts after it
    await tx.query(`select set_config('app.audit', 'off', true)`);
    await writeDemo(tx, passwordHash, options.now ?? new Date());
    return true;
  });
  // the demo's documents are raw rows: the ledger gets the entries they imply (FINANCE.md §6, §7)
  if (created) await backfillLedger(db);
  return created;
}

async function writeDemo(tx: Queryable, passwordHash: string, now: Date): Promise<void> {
  const rng = new Rng(20261122);
  const id = () => rng.uuid();
  const today = todaySg(now);
  const Y = Number(today.slice(0, 4));
  const nowIso = now.toISOString();
  const past = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86400_000).toISOString();

  // ── roles ──────────────────────────────────────────────────────────────────────────────
  const roleRows: Row[] = [...STAFF_ROLES, ...ACCOUNT_ROLES].map((r, i) => ({
    id: id(), name: r, abbreviation: ROLE_ABBR[r], roleCode: String(i + 1).padStart(2, "0"),
    isTeaching: ["fulltime_tutor", "parttime_tutor", "hod", "tutor"].includes(r), modules: [], status: "active",
  }));
  await insertRows(tx, "roles", roleRows);

  // ── companies, branches, classrooms, banks, schools ───────────────────────────────────
  const companies = [
    { id: id(), name: "Bright Minds Education Pte Ltd", shortName: "BME", address: "1 Tampines Central 5, #03-10, Singapore 529508", uen: "201912345K", hasGstNo: true, gstRefNo: "M90371234X", telNo: "+65 6789 1234", colorCode: "#1677ff", paNotes: "Late payment fee of $10 per week applies. PayNow is preferred; please email a screenshot of the payment. NETS and cash are accepted at the outlet.", logoUrl: null, status: "active" },
    { id: id(), name: "Summit Learning Centre Pte Ltd", shortName: "SLC", address: "510 Thomson Road, #02-01, Singapore 298135", uen: "201823456M", hasGstNo: false, gstRefNo: null, telNo: "+65 6250 4321", colorCode: "#52c41a", paNotes: "Late payment fee of $10 per week applies. PayNow is preferred; NETS and cash are accepted at the outlet.", logoUrl: null, status: "active" },
  ];
  await insertRows(tx, "companies", companies);
  const [c1, c2] = companies;
  const branches = [
    { id: id(), name: "Tampines", abbreviation: "TAM", address: "1 Tampines Central 5, #03-10", city: "Singapore", country: "Singapore", postalCode: "529508", companyId: c1.id, status: "active" },
    { id: id(), name: "Jurong East", abbreviation: "JE", address: "50 Jurong Gateway Road, #04-21", city: "Singapore", country: "Singapore", postalCode: "608549", companyId: c1.id, status: "active" },
    { id: id(), name: "Bishan", abbreviation: "BSH", address: "9 Bishan Place, #05-02", city: "Singapore", country: "Singapore", postalCode: "579837", companyId: c2.id, status: "active" },
    { id: id(), name: "Serangoon", abbreviation: "SRG", address: "23 Serangoon Central, #03-44", city: "Singapore", country: "Singapore", postalCode: "556083", companyId: c2.id, status: "active" },
  ];
  await insertRows(tx, "branches", branches);
  const classrooms: Row[] = [];
  for (const b of branches) for (let i = 1; i <= 3; i++) classrooms.push({ id: id(), name: `${b.abbreviation}-Room ${i}`, capacity: [20, 16, 12][i - 1], branchId: b.id, status: "active" });
  await insertRows(tx, "classrooms", classrooms);
  const roomsOf = (branchId: string) => classrooms.filter((r) => r.branchId === branchId);
  const banks = ["DBS Bank", "OCBC Bank", "UOB", "Maybank", "Standard Chartered"].map((n, i) => ({ id: id(), name: n, code: ["7171", "7339", "7375", "7302", "9496"][i], status: "active" }));
  await insertRows(tx, "banks", banks);
  const schools = ["Raffles Institution", "Hwa Chong Institution", "Nanyang Girls' High School", "Victoria School", "Temasek Junior College",
    "Anglo-Chinese School (Independent)", "Dunman High School", "River Valley High School", "Tampines Secondary School", "Bishan Park Secondary School"]
    .map((n) => ({ id: id(), name: n, address: null, status: "active" }));
  await insertRows(tx, "schools", schools);

  // ── curriculums, levels, subjects (per company) ───────────────────────────────────────
  const CURR = [
    { abbreviation: "A", name: "A Level", nameOfReport: "GCE A Level" },
    { abbreviation: "IP", name: "Integrated Programme", nameOfReport: "Integrated Programme" },
    { abbreviation: "EXP", name: "Express", nameOfReport: "Express (O Level)" },
    { abbreviation: "IB", name: "International Baccalaureate", nameOfReport: "IB Diploma" },
  ];
  const LEV = [
    { abbreviation: "S1", name: "Secondary 1", order: 1 }, { abbreviation: "S2", name: "Secondary 2", order: 2 },
    { abbreviation: "S3", name: "Secondary 3", order: 3 }, { abbreviation: "S4", name: "Secondary 4", order: 4 },
    { abbreviation: "J1", name: "JC 1", order: 5 }, { abbreviation: "J2", name: "JC 2", order: 6 },
  ];
  const LINKS: Record<string, string[]> = { A: ["J1", "J2"], IP: ["S1", "S2", "S3", "S4", "J1", "J2"], EXP: ["S1", "S2", "S3", "S4"], IB: ["J1", "J2"] };
  const SUBJ = ["Mathematics", "English", "Chemistry", "Physics", "Biology", "Chinese"];
  const curriculums: Row[] = [], levels: Row[] = [], subjects: Row[] = [], currLevels: Row[] = [];
  const byCo = new Map<string, { curr: Record<string, string>; lev: Record<string, string>; subj: Record<string, string> }>();
  for (const c of companies) {
    const m = { curr: {} as Record<string, string>, lev: {} as Record<string, string>, subj: {} as Record<string, string> };
    for (const cu of CURR) { const r = { id: id(), ...cu, companyId: c.id, status: "active" }; curriculums.push(r); m.curr[cu.abbreviation] = r.id; }
    for (const lv of LEV) { const r = { id: id(), ...lv, companyId: c.id, status: "active" }; levels.push(r); m.lev[lv.abbreviation] = r.id; }
    for (const s of SUBJ) { const r = { id: id(), name: s, abbreviation: s.slice(0, 3).toUpperCase(), companyId: c.id, status: "active" }; subjects.push(r); m.subj[s] = r.id; }
    for (const [cu, lvs] of Object.entries(LINKS)) for (const lv of lvs) currLevels.push({ id: id(), curriculumId: m.curr[cu], levelId: m.lev[lv], status: "active" });
    byCo.set(c.id, m);
  }
  await insertRows(tx, "curriculums", curriculums);
  await insertRows(tx, "levels", levels);
  await insertRows(tx, "subjects", subjects);
  await insertRows(tx, "curriculums_levels", currLevels);

  // ── categories and programme types ────────────────────────────────────────────────────
  const categories = [
    { id: id(), name: "Regular", code: "regular", abbreviation: "R", sortOrder: 1, status: "active" },
    { id: id(), name: "Double Lesson", code: "double_lesson", abbreviation: "DB", sortOrder: 2, status: "active" },
    { id: id(), name: "Special", code: "special", abbreviation: "S", sortOrder: 3, status: "active" },
    { id: id(), name: "Others", code: "others", abbreviation: "O", sortOrder: 4, status: "active" },
  ];
  await insertRows(tx, "categories", categories);
  const cat = Object.fromEntries(categories.map((c) => [c.code, c.id])) as Record<string, string>;
  const programTypes = [
    { id: id(), name: "Weekday Lesson", code: "WLWD", abbreviation: "WLWD", fullName: "Weekly Lesson Weekday", shortName: "Weekday", categoryId: cat.regular, status: "active" },
    { id: id(), name: "Weekend Lesson", code: "WLWE", abbreviation: "WLWE", fullName: "Weekly Lesson Weekend", shortName: "Weekend", categoryId: cat.regular, status: "active" },
    { id: id(), name: "Double Lesson Weekday", code: "DBWD", abbreviation: "DBWD", fullName: "Double Lesson Weekday", shortName: "DB Weekday", categoryId: cat.double_lesson, status: "active" },
    { id: id(), name: "Double Lesson Weekend", code: "DBWE", abbreviation: "DBWE", fullName: "Double Lesson Weekend", shortName: "DB Weekend", categoryId: cat.double_lesson, status: "active" },
    { id: id(), name: "Holiday Workshop", code: null, abbreviation: "WS", fullName: "Holiday Workshop", shortName: "Workshop", categoryId: cat.special, status: "active" },
    { id: id(), name: "Exam Booster", code: null, abbreviation: "EB", fullName: "Exam Booster Session", shortName: "Booster", categoryId: cat.others, status: "active" },
  ];
  await insertRows(tx, "program_types", programTypes);
  const ptByCat = (code: string) => programTypes.filter((p) => p.categoryId === cat[code]);

  // ── staff users and demo accounts ─────────────────────────────────────────────────────
  const users: Row[] = [];
  const credentials: Row[] = [];
  const staffIds: Record<string, string> = {};
  const staffUser = (username: string, roles: string[], first: string, last: string, companyId: string, branchId: string): Row => ({
    id: id(), username, firstName: first, lastName: last, email: `${username}@${DEMO_EMAIL_DOMAIN}`, phone: phone(rng),
    type: roles.some((r) => r.includes("tutor") || r === "hod") ? "tutor" : "admin", role: roles[roles.length - 1], multipleRoles: roles,
    status: "active", companyId, branchId, isVerifiedEmail: true, numOfFailed: 0, gender: rng.pick(["male", "female"]),
    createdAt: past(300), updatedAt: past(rng.int(1, 200)),
  });
  for (const a of demoAccounts()) {
    const label = a.username === "multi_role" ? ["Multi", "Role"] : ROLE_LABEL[a.roles[0]].split(" ");
    const u = staffUser(a.username, a.roles, label[0], label.slice(1).join(" ") || "User", c1.id, branches[0].id);
    users.push(u);
    staffIds[a.username] = u.id as string;
    credentials.push({ userId: u.id, passwordHash, mustChangePassword: false, passwordChangedAt: nowIso });
  }
  const tutors: string[] = [staffIds.fulltime_tutor, staffIds.parttime_tutor, staffIds.hod];
  for (let i = 0; i < 6; i++) {
    const first = rng.pick(FIRST), last = rng.pick(LAST);
    const u = staffUser(`tutor.${slug(first)}${i + 1}`, [i % 2 ? "parttime_tutor" : "fulltime_tutor"], first, last, i < 3 ? c1.id : c2.id, branches[i % 4].id);
    u.bankId = rng.pick(banks).id;
    u.bankNumber = String(rng.int(100000000, 999999999));
    users.push(u);
    tutors.push(u.id as string);
  }

  // ── programmes ────────────────────────────────────────────────────────────────────────
  type Prog = Row & { id: string; name: string; programCode: string; companyId: string; category: string; subjectId: string; curriculumIds: string[]; levelIds: string[]; programTypeId: string };
  const programs: Prog[] = [];
  const progSpecs: Array<[number, string, string, string[], string[]]> = [
    [0, "Mathematics", "regular", ["EXP", "IP"], ["S3", "S4"]],
    [0, "Chemistry", "regular", ["EXP", "IP"], ["S3", "S4"]],
    [0, "Physics", "regular", ["A", "IB"], ["J1", "J2"]],
    [0, "Mathematics", "double_lesson", ["A"], ["J1", "J2"]],
    [0, "English", "special", ["EXP"], ["S1", "S2"]],
    [0, "Biology", "others", ["IP"], ["S3", "S4"]],
    [1, "Mathematics", "regular", ["EXP"], ["S1", "S2"]],
    [1, "Chinese", "regular", ["EXP", "IP"], ["S1", "S2", "S3"]],
    [1, "Chemistry", "double_lesson", ["A", "IB"], ["J1", "J2"]],
    [1, "Physics", "special", ["IP"], ["S4"]],
  ];
  for (const [ci, subj, category, cu, lv] of progSpecs) {
    const co = companies[ci];
    const m = byCo.get(co.id)!;
    const code = `${co.shortName}-${subj.slice(0, 3).toUpperCase()}-${categories.find((c) => c.code === category)!.abbreviation}`;
    programs.push({
      id: id(), name: `${subj} ${category === "regular" ? "Weekly" : category === "double_lesson" ? "Double Lesson" : category === "special" ? "Workshop" : "Booster"} (${lv.join("/")})`,
      programCode: code, companyId: co.id, curriculumIds: cu.map((x) => m.curr[x]), levelIds: lv.map((x) => m.lev[x]),
      tutorIds: rng.sample(tutors, 2), subjectId: m.subj[subj], category, categoryId: cat[category], programTypeId: ptByCat(category)[0].id,
      remark: null, curriculumFiles: [], status: "active", createdAt: past(320), updatedAt: past(rng.int(30, 300)),
    });
  }

  // ── academic calendars and terms (current year) ───────────────────────────────────────
  const calendars: Row[] = [];
  const terms: Array<Row & { id: string; startDate: string; endDate: string; academicCalendarId: string; name: string }> = [];
  const calOf = new Map<string, string>(); // companyId|category → calendar id
  const TERM_DATES: Array<[string, string]> = [[day(Y, 1, 2), day(Y, 3, 15)], [day(Y, 3, 23), day(Y, 5, 31)], [day(Y, 6, 29), day(Y, 9, 6)], [day(Y, 9, 14), day(Y, 12, 31)]];
  for (const co of companies) for (const category of ["regular", "double_lesson", "special", "others"]) {
    const cal = { id: id(), name: `${Y} ${co.shortName} ${categories.find((c) => c.code === category)!.name} Calendar`, year: Y, category: category === "special" ? "custom" : category === "others" ? "monthly" : "weekly",
      categoryId: cat[category], curriculumId: byCo.get(co.id)!.curr.EXP, levelIds: Object.values(byCo.get(co.id)!.lev), companyId: co.id, status: "active", createdAt: past(330), updatedAt: past(rng.int(60, 320)) };
    calendars.push(cal);
    calOf.set(`${co.id}|${category}`, cal.id);
    TERM_DATES.forEach(([s, e], i) => terms.push({ id: id(), name: `Term ${i + 1}`, startDate: s, endDate: e, numberOfLessons: Math.round((Date.parse(e) - Date.parse(s)) / (7 * 86400_000)), academicCalendarId: cal.id, status: "active" }));
  }
  await insertRows(tx, "academic_calendars", calendars);
  await insertRows(tx, "terms", terms);
  const termFor = (calId: string, d: string) => terms.find((t) => t.academicCalendarId === calId && t.startDate <= d && d <= t.endDate);

  // ── pricing ───────────────────────────────────────────────────────────────────────────
  const priceCents = new Map<string, number>(); // calendarId|programTypeId → cents per lesson
  const pricings: Row[] = [];
  for (const cal of calendars) for (const pt of programTypes) {
    if (pt.categoryId !== cal.categoryId) continue;
    const cents = pt.code?.startsWith("DB") ? rng.pick([8500, 9000, 9500]) : rng.pick([4500, 5000, 5500, 6000]);
    priceCents.set(`${cal.id}|${pt.id}`, cents);
    pricings.push({ id: id(), academicCalendarId: cal.id, programTypeId: pt.id, companyId: cal.companyId, pricePerLesson: money(cents), status: "active" });
  }
  await insertRows(tx, "academic_program_type_pricings", pricings);

  // ── classes, lessons, sessions ────────────────────────────────────────────────────────
  type Cls = Row & { id: string; name: string; classStatus: string; companyId: string; branchId: string; programId: string; programTypeId: string; academicCalendarId: string; classSize: number; startDate: string; lessonType: string };
  const classes: Cls[] = [];
  const statusPlan = ["open", "open", "open", "new", "open", "closed", "open", "new", "open", "open", "closed", "new", "open", "open", "new", "open", "closed", "open", "new", "open", "open", "closed", "new", "open"];
  const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  statusPlan.forEach((classStatus, i) => {
    const prog = programs[i % programs.length];
    const co = companies.find((c) => c.id === prog.companyId)!;
    const branch = rng.pick(branches.filter((b) => b.companyId === co.id));
    const types = ptByCat(prog.category);
    const pt = types[i % types.length];
    const weekend = pt.code === "WLWE" || pt.code === "DBWE";
    const dow = weekend ? rng.pick([0, 6]) : rng.int(1, 5);
    const calId = calOf.get(`${co.id}|${prog.category}`)!;
    let start: string;
    if (classStatus === "new") start = addDays(today, 14 + rng.int(0, 30));
    else start = day(Y, 1, 2);
    while (weekday(start) !== dow) start = addDays(start, 1);
    const lv = rng.pick(prog.levelIds);
    const levAbbr = levels.find((l) => l.id === lv)!.abbreviation as string;
    const tier = `BL${(i % 4) + 1}`;
    classes.push({
      id: id(), name: `${prog.name.split(" ")[0]} ${levAbbr} ${DAYS[dow]} ${tier}`, classCode: `${prog.programCode}-${levAbbr}-${String(i + 1).padStart(2, "0")}`,
      classStatus, classType: prog.category, classTier: tier, lessonType: prog.category, year: Number(start.slice(0, 4)), startDate: start,
      endDate: classStatus === "closed" ? day(Y, 3, 15) : null, remark: null, tag: pt.code ?? prog.category, totalLoop: 1, classSize: 20,
      companyId: co.id, branchId: branch.id, programId: prog.id, programTypeId: pt.id, academicCalendarId: calId,
      tutorIds: rng.sample(tutors, 1 + (i % 2)), status: "active", createdAt: past(330 - i), updatedAt: past(rng.int(1, 120)),
    });
  });
  await insertRows(tx, "programs", programs);
  await insertRows(tx, "classes", classes);

  const lessons: Array<Row & { id: string; classId: string; date: string; termId: string | null }> = [];
  const sessions: Row[] = [];
  for (const cls of classes) {
    const rooms = roomsOf(cls.branchId);
    const room = rng.pick(rooms).id;
    const last = cls.classStatus === "closed" ? day(Y, 3, 15) : cls.classStatus === "new" ? addDays(cls.startDate, 7 * 7) : day(Y, 12, 31);
    const hour = rng.pick(["09:00", "10:30", "14:00", "16:00", "18:30"]);
    const long = cls.lessonType === "double_lesson";
    let n = 0;
    for (let d = cls.startDate; d <= last; d = addDays(d, 7)) {
      const term = termFor(cls.academicCalendarId, d);
      if (!term && cls.classStatus !== "new") continue; // school holidays between terms
      n++;
      const lessonId = id();
      const cancelled = cls.classStatus === "open" && n === 9;
      lessons.push({ id: lessonId, classId: cls.id, termId: term?.id ?? null, date: d, numberWeek: n, orderPriority: n, lessonStatus: cancelled ? "cancel" : "active", classroomId: room, status: "active" });
      const [h, m] = hour.split(":").map(Number);
      const endH = h + (long ? 3 : 2);
      sessions.push({ id: id(), lessonId, startTime: sgTime(d, hour), endTime: sgTime(d, `${String(endH).padStart(2, "0")}:${String(m).padStart(2, "0")}`), tutorIds: cls.tutorIds, status: "active" });
    }
  }
  await insertRows(tx, "lessons", lessons);
  await insertRows(tx, "lesson_sessions", sessions);
  const lessonsOf = new Map<string, typeof lessons>();
  for (const l of lessons) { if (!lessonsOf.has(l.classId)) lessonsOf.set(l.classId, []); lessonsOf.get(l.classId)!.push(l); }

  // ── students ──────────────────────────────────────────────────────────────────────────
  type Stu = Row & { id: string; username: string; companyId: string; status: string; firstName: string; lastName: string };
  const students: Stu[] = [];
  const STUDENT_COUNT = 72;
  for (let i = 0; i < STUDENT_COUNT; i++) {
    const co = i < 48 ? c1 : c2;
    const m = byCo.get(co.id)!;
    const first = FIRST[i % FIRST.length], last = LAST[(i * 7) % LAST.length];
    const username = `${slug(first)}.${slug(last)}${String(i + 1).padStart(2, "0")}`;
    const pFirst = rng.pick(FIRST), mFirst = rng.pick(FIRST);
    const father = { relationship: "father", email: `${slug(pFirst)}.${slug(last)}${i + 1}@example.com`, firstName: pFirst, lastName: last, occupation: rng.pick(OCCUPATIONS), phone: phone(rng), primaryContact: i % 2 === 0, isEmergencyContact: i % 3 === 0 };
    const mother = { relationship: "mother", email: `${slug(mFirst)}.${slug(last)}${i + 1}@example.com`, firstName: mFirst, lastName: rng.pick(LAST), occupation: rng.pick(OCCUPATIONS), phone: phone(rng), primaryContact: i % 2 === 1, isEmergencyContact: i % 3 !== 0 };
    const parents = i % 5 === 4 ? [mother] : [father, mother];
    const emergency = parents.find((p) => p.isEmergencyContact) ?? parents[0];
    const curr = rng.pick(["EXP", "IP", "A", "IB"]);
    const lev = rng.pick(LINKS[curr]);
    const status = i === 70 ? "draft" : i === 71 ? "deleted" : i === 69 ? "pending" : i === 68 ? "inactive" : "active";
    students.push({
      id: id(), username, firstName: first, lastName: last, email: `${username}@student.${DEMO_EMAIL_DOMAIN}`, phone: phone(rng),
      dob: day(Y - (lev.startsWith("J") ? 17 : 13 + Number(lev.slice(1))), rng.int(1, 12), rng.int(1, 28)), gender: rng.pick(["male", "female"]),
      address: `Blk ${rng.int(100, 999)} ${rng.pick(["Tampines", "Bishan", "Jurong West", "Serangoon", "Bedok", "Ang Mo Kio"])} Street ${rng.int(11, 99)}, #${String(rng.int(2, 20)).padStart(2, "0")}-${rng.int(100, 999)}, Singapore ${rng.int(300000, 799999)}`,
      type: "student", role: "student", multipleRoles: ["student"], status, studentId: `S${Y}${String(i + 1).padStart(4, "0")}`,
      companyId: co.id, branchId: rng.pick(branches.filter((b) => b.companyId === co.id)).id, parents, firstParent: parents[0],
      siblings: [], references: [], subscribe: i % 13 !== 5, payOnline: i % 4 === 0, infiniteAmbassador: i % 17 === 0, paymentStatus: null,
      billing: { name: `${parents[0].firstName} ${parents[0].lastName}`, email: parents[0].email, phone: parents[0].phone },
      emergencyContact: { firstName: emergency.firstName, lastName: emergency.lastName, phone: emergency.phone },
      mailling: { address: null, postalCode: null }, curriculumId: m.curr[curr], levelId: m.lev[lev], levelIds: [m.lev[lev]], schoolId: rng.pick(schools).id,
      currentStep: status === "draft" ? 2 : 3, isVerifiedEmail: i % 3 !== 0, createdAt: past(rng.int(60, 330)), updatedAt: past(rng.int(0, 59)),
    });
  }
  // a few sibling pairs
  for (let i = 0; i + 1 < 20; i += 6) {
    const a = students[i], b = students[i + 1];
    b.lastName = a.lastName;
    a.siblings = [{ id: b.id, firstName: b.firstName, lastName: b.lastName, username: b.username }];
    b.siblings = [{ id: a.id, firstName: a.firstName, lastName: a.lastName, username: a.username }];
  }
  users.push(...students);
  await insertRows(tx, "users", users);
  await insertRows(tx, "user_credentials", credentials);
  const activeStudents = students.filter((s) => s.status === "active");

  // ── enrolments, lesson students (attendance history), gantry records ──────────────────
  const enrol: Array<Row & { id: string; userId: string; classId: string; status: string; lessonStartDate: string }> = [];
  const seats = new Map<string, number>();
  const enrolIn = (s: Stu, cls: Cls, status: string, lessonStartDate?: string) => {
    if (enrol.some((e) => e.userId === s.id && e.classId === cls.id)) return;
    seats.set(cls.id, (seats.get(cls.id) ?? 0) + 1);
    const ls = lessonStartDate ?? cls.startDate;
    const termIds = [...new Set((lessonsOf.get(cls.id) ?? []).filter((l) => l.date >= ls && l.termId).map((l) => l.termId))];
    enrol.push({ id: id(), userId: s.id, classId: cls.id, status, type: "enrollment", action: null, termsRef: termIds, lessonStartDate: ls, endDate: null, createdAt: past(rng.int(30, 300)), updatedAt: past(rng.int(0, 29)) });
  };
  const coClasses = (coId: string, st: string) => classes.filter((c) => c.companyId === coId && c.classStatus === st);
  // class 0 full (20 of 20) and class 1 filling fast (17 of 20), to show every availability label
  const openC1 = coClasses(c1.id, "open");
  const c1Students = activeStudents.filter((s) => s.companyId === c1.id);
  for (const s of c1Students.slice(0, 20)) enrolIn(s, openC1[0], "enrolled");
  for (const s of c1Students.slice(10, 27)) enrolIn(s, openC1[1], "enrolled");
  const enrolStatuses = ["enrolled", "enrolled", "enrolled", "enrolled", "enrolled", "enrolled", "suspended", "withdrawn", "transferred", "replacement", "returned", "pending"];
  for (const s of activeStudents) {
    const open = coClasses(s.companyId, "open").filter((c) => (seats.get(c.id) ?? 0) < 15);
    for (const cls of rng.sample(open, rng.int(1, 2))) enrolIn(s, cls, rng.pick(enrolStatuses), rng.chance(0.2) ? addDays(cls.startDate, 7 * rng.int(2, 8)) : undefined);
    if (rng.chance(0.35)) { const closed = rng.pick(coClasses(s.companyId, "closed")); if (closed) enrolIn(s, closed, rng.pick(["completed", "completed", "withdrawal", "has_been_transferred", "has_been_replaced", "voided"])); }
    if (rng.chance(0.25)) { const nw = rng.pick(coClasses(s.companyId, "new")); if (nw) enrolIn(s, nw, "pending"); }
  }
  await insertRows(tx, "student_classes", enrol);

  const lessonStudents: Row[] = [];
  const gantry: Row[] = [];
  const absences = new Map<string, string[]>(); // enrolment id → missed dates
  for (const e of enrol) {
    const cls = classes.find((c) => c.id === e.classId)!;
    const type = e.status === "transferred" ? "transferred" : e.status === "replacement" ? "replacement" : e.status === "withdrawal" || e.status === "withdrawn" ? "withdrawal"
      : e.status === "has_been_replaced" ? "has_been_replaced" : e.status === "has_been_transferred" ? "has_been_transferred" : "enrolled";
    for (const l of lessonsOf.get(cls.id) ?? []) {
      if (l.date < e.lessonStartDate || l.lessonStatus === "cancel") continue;
      const isPast = l.date < today;
      let status = "not_attended";
      if (e.status === "withdrawn" || e.status === "withdrawal") status = "withdrawn";
      else if (e.status === "suspended" && !isPast) status = "suspended";
      else if (isPast && rng.chance(0.86)) status = "attended";
      const attended = status === "attended";
      const entry = attended ? sgTime(l.date, "08:55") : null;
      lessonStudents.push({ id: id(), lessonId: l.id, studentId: e.userId, studentClassId: e.id, type, status, hasAttended: attended, entryTime: entry, remarks: null, createdAt: past(200), updatedAt: isPast ? `${l.date}T12:00:00.000Z` : past(100) });
      if (isPast && status === "not_attended") { const a = absences.get(e.id) ?? []; a.push(l.date); absences.set(e.id, a); }
      if (attended && l.date >= addDays(today, -21)) gantry.push({ id: id(), studentId: e.userId, branchId: cls.branchId, lessonId: l.id, cardNo: `C${String(rng.int(100000, 999999))}`, deviceId: `${branches.find((b) => b.id === cls.branchId)!.abbreviation}-G1`, direction: "in", recordedAt: sgTime(l.date, `0${rng.int(7, 8)}:${String(rng.int(10, 59))}`), status: "active" });
    }
  }
  await insertRows(tx, "lessons_students", lessonStudents);
  await insertRows(tx, "gantry_records", gantry);

  const tta: Row[] = [];
  for (const [eid, dates] of absences) if (dates.length >= 3 && tta.length < 8) {
    const e = enrol.find((x) => x.id === eid)!;
    tta.push({ id: id(), classId: e.classId, studentId: e.userId, absentDates: dates.slice(-3), emailStatus: rng.pick(["sent", "pending"]), status: "active" });
  }
  await insertRows(tx, "three_times_absents", tta);
  const sampleLs = rng.sample(lessonStudents.filter((x) => x.status === "attended"), 6);
  await insertRows(tx, "backup_attendance_logs", sampleLs.map((x) => ({ id: id(), lessonId: x.lessonId, lessonStudentId: x.id, studentId: x.studentId, valueBefore: { status: "not_attended", hasAttended: false }, valueAfter: { status: "attended", hasAttended: true }, createdBy: staffIds.attendance_checker, status: "active" })));
  await insertRows(tx, "enrollment_list", enrol.slice(0, 10).map((e) => ({ id: id(), studentId: e.userId, classId: e.classId, classInformation: { className: classes.find((c) => c.id === e.classId)!.name, status: e.status, lessonStartDate: e.lessonStartDate }, status: "active" })));
  await insertRows(tx, "email_student_logs", activeStudents.slice(0, 6).map((s, i) => ({ id: id(), studentId: s.id, email: s.email, subject: "Payment reminder", emailStatus: i % 3 === 2 ? "failed" : "sent", sentAt: past(i + 1), status: "active" })));

  // transfers, suspensions, withdrawals
  const pickEnrol = (st: string) => enrol.filter((e) => e.status === st);
  const rtc: Row[] = [];
  ["pending", "completed", "rejected", "cancelled"].forEach((s, i) => {
    const e = enrol[(i * 11) % enrol.length];
    const cls = classes.find((c) => c.id === e.classId)!;
    const to = classes.find((c) => c.companyId === cls.companyId && c.id !== cls.id && c.classStatus === "open")!;
    rtc.push({ id: id(), studentId: e.userId, fromClassId: cls.id, toClassId: to.id, transferClassStatus: s, lessonStartDate: addDays(today, 7), reason: "Timing clash with school CCA", status: "active", createdBy: staffIds.front_desk });
  });
  await insertRows(tx, "request_transfer_classes", rtc);
  const suspensions: Row[] = pickEnrol("suspended").slice(0, 4).map((e, i) => {
    const ls = (lessonsOf.get(e.classId) ?? []).filter((l) => l.date >= today).slice(0, 2);
    return { id: id(), studentId: e.userId, classId: e.classId, studentClassId: e.id, startDate: ls[0]?.date ?? today, endDate: ls[1]?.date ?? addDays(today, 7), lessonIds: ls.map((l) => l.id), reason: "Overseas family trip", remarks: null, suspensionStatus: ["completed", "pending", "rejected", "cancelled"][i], status: "active", createdBy: staffIds.front_desk };
  });
  await insertRows(tx, "suspensions", suspensions);
  const withdrawals: Row[] = pickEnrol("withdrawn").slice(0, 4).map((e, i) => ({ id: id(), studentId: e.userId, classId: e.classId, studentClassId: e.id, withdrawalDate: addDays(today, -7 * (i + 1)), lastLessonDate: addDays(today, -7 * (i + 1)), reason: "Moving to another centre", remarks: null, withdrawalStatus: ["completed", "pending", "completed", "rejected"][i], status: "active", createdBy: staffIds.front_desk }));
  await insertRows(tx, "withdrawals", withdrawals);

  // ── discounts, settings, special pricing ──────────────────────────────────────────────
  const DISCOUNT_TYPES = ["referral_discount", "sibling_discount", "we_chat", "power_pack", "exclusive_principal", "full_annual_payment", "semi_annual_payment",
    "off_subsequence_subject", "super_early_bird_sign_up", "early_bird_sign_up", "make_the_switch"];
  const discounts: Array<Row & { id: string; companyId: string; amount: string; unit: string; name: string }> = [];
  companies.forEach((co, ci) => DISCOUNT_TYPES.forEach((t, i) => {
    if (ci === 1 && i % 2 === 1) return;
    const percent = i % 3 === 0;
    const expired = i === 8;
    discounts.push({ id: id(), code: `${co.shortName}-${t.toUpperCase().replace(/_/g, "").slice(0, 10)}`, name: t.split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join(" "), type: t,
      amount: percent ? money(rng.pick([500, 1000, 1500])) : money(rng.pick([1000, 2000, 3000, 5000])), unit: percent ? "percent" : "amount",
      startDate: expired ? day(Y - 1, 1, 1) : day(Y, 1, 1), endDate: expired ? day(Y - 1, 12, 31) : day(Y, 12, 31), description: `${t.replace(/_/g, " ")} discount`, order: i + 1,
      companyId: co.id, status: i === 10 && ci === 0 ? "deleted" : "active", createdAt: past(300), updatedAt: past(rng.int(1, 250)) });
  }));
  await insertRows(tx, "discounts", discounts);
  const discountRules: DiscountRule[] = discounts.map((d) => ({ id: d.id, name: d.name, unit: d.unit as DiscountRule["unit"], value: numericToCents(d.amount)!, startDate: d.startDate as string, endDate: d.endDate as string, status: d.status as string }));
  const REG_FEE = 8000, DEPOSIT = 20000;
  const waive = { startDate: day(Y, 11, 15), endDate: day(Y, 12, 31) };
  const settings: Row[] = [];
  const feeParent = id();
  settings.push({ id: feeParent, key: "fee", type: "fee", value: { description: "Fee settings" }, companyId: null, parentId: null, status: "active" });
  settings.push({ id: id(), key: "registrationFee", type: "fee", value: { amount: money(REG_FEE) }, companyId: null, parentId: feeParent, status: "active" });
  settings.push({ id: id(), key: "waivePeriod", type: "fee", value: waive, companyId: null, parentId: feeParent, status: "active" });
  settings.push({ id: id(), key: "materialFee", type: "fee", value: { amount: money(3000) }, companyId: null, parentId: feeParent, status: "active" });
  settings.push({ id: id(), key: "lateFee", type: "fee", value: { amount: money(1000), per: "week" }, companyId: null, parentId: feeParent, status: "active" });
  settings.push({ id: id(), key: "depositSettings", type: "deposit", value: { amount: money(DEPOSIT) }, companyId: null, parentId: null, status: "active" });
  settings.push({ id: id(), key: "gst", type: "gst", value: { percentage: 9, options: [0, 7, 8, 9], default: 0 }, companyId: null, parentId: null, status: "active" });
  for (const co of companies) settings.push({ id: id(), key: "gst", type: "gst", value: { percentage: co.hasGstNo ? 9 : 0 }, companyId: co.id, parentId: null, status: "active" });
  settings.push({ id: id(), key: "paymentNotes", type: "payment", value: { notes: "PayNow is the preferred method. Please email a screenshot of the payment. NETS and cash are accepted at the outlet. Late payment fee: $10 per week." }, companyId: null, parentId: null, status: "active" });
  // issue 39: overdue reminders 3 and 10 days after the due date; the ledger's account codes: the defaults
  settings.push({ id: id(), key: REMINDER_SETTING_KEY, type: "payment", value: { days: "3,10" }, companyId: null, parentId: null, status: "active" });
  settings.push({ id: id(), key: ACCOUNT_CODE_SETTING_KEY, type: "accounting", value: { ...DEFAULT_ACCOUNT_CODES, taxRate: DEFAULT_TAX_RATE }, companyId: null, parentId: null, status: "active" });
  await insertRows(tx, "system_settings", settings);
  const specialClasses = classes.filter((c) => c.lessonType === "special" || c.lessonType === "others");
  await insertRows(tx, "special_class_pricings", specialClasses.flatMap((c) => ["new", "existing"].map((st) => ({ id: id(), companyId: c.companyId, programId: c.programId, classId: c.id, studentType: st, pricePerStudent: money(st === "new" ? 18000 : 15000), status: "active" }))));

  // ── payment advices, invoices, receipts, deposits, logs ───────────────────────────────
  const counters = new Map<string, number>(); // companyId|type → last number
  const nextNo = (coId: string, type: string, prefix: string) => {
    const k = `${coId}|${type}`;
    const n = (counters.get(k) ?? 0) + 1;
    counters.set(k, n);
    const co = companies.find((c) => c.id === coId)!;
    return `${prefix}-${co.shortName}-${Y}-${String(n).padStart(5, "0")}`;
  };
  const pas: Row[] = [], paLogs: Row[] = [], invoices: Row[] = [], receipts: Row[] = [], payments: Row[] = [], deposits: Row[] = [];
  const PA_PLAN = ["paid", "paid", "paid", "unpaid", "overdue", "draft", "paid", "voided", "overpaid", "withdrawn", "unpaid", "paid"];
  const paOfEnrol = new Map<string, string>();
  const METHODS = ["cash", "nets", "cheque", "credit_card", "interbank_transfer", "qr_code", "axs"];
  let k = 0;
  for (const e of enrol) {
    if (["pending", "voided"].includes(e.status)) continue;
    const cls = classes.find((c) => c.id === e.classId)!;
    const prog = programs.find((p) => p.id === cls.programId)!;
    const s = students.find((x) => x.id === e.userId)!;
    const co = companies.find((c) => c.id === cls.companyId)!;
    const gstPct = co.hasGstNo ? 9 : 0;
    const paymentStatus = PA_PLAN[k++ % PA_PLAN.length];
    const clsLessons = (lessonsOf.get(cls.id) ?? []).filter((l) => l.date >= e.lessonStartDate && l.lessonStatus !== "cancel");
    const termIds = [...new Set(clsLessons.map((l) => l.termId).filter(Boolean))].slice(0, 1) as string[];
    const termless = cls.classType === "special" || cls.classType === "others";
    // special and others classes are priced per student (special_class_pricings, a new student's price)
    const unit = termless ? 18000 : (priceCents.get(`${cls.academicCalendarId}|${cls.programTypeId}`) ?? 15000);
    const disc = rng.chance(0.4) ? rng.pick(discounts.filter((d) => d.companyId === co.id && d.status === "active")) : null;
    const reg = rng.chance(0.3) ? REG_FEE : 0;
    const dep = rng.chance(0.25) ? DEPOSIT : 0;
    const issueDate = paymentStatus === "overdue" ? addDays(today, -40) : paymentStatus === "unpaid" ? addDays(today, -5) : addDays(today, -rng.int(20, 200));
    const dueDate = addDays(issueDate, 14);
    const paId = id();
    const name = paymentStatus === "draft" ? null : nextNo(co.id, "payment_advice", "PA");
    // issue 14: every figure from src/domain/finance, as the finance service computes it (FINANCE.md §3)
    const entry: ClassInformationEntry = {
      id: cls.id, lessonStartDate: e.lessonStartDate, termIds: termless ? [] : termIds, discountIds: disc ? [disc.id] : [], quantityAdditionalLesson: 0, additionalDiscount: 0,
      booterClassIds: [], otherPayments: [], deductions: [], deposits: dep ? [{ name: "Deposit", amount: dep }] : [], deductedDeposit: [], isDeductedDeposit: false,
    };
    const priced = computePaymentAdvice({
      issueDate, isRegistrationFee: reg > 0, registrationFee: { amount: REG_FEE, waiverPeriod: waive }, gstPercent: gstPct as GstPercent, entries: [entry],
      classes: new Map([[cls.id, { id: cls.id, name: cls.name, classType: cls.classType as string, classStatus: cls.classStatus, unitPrice: unit,
        lessons: (lessonsOf.get(cls.id) ?? []).map((l) => ({ id: l.id as string, date: l.date as string, termId: (l.termId as string | null) ?? null, lessonStatus: l.lessonStatus as string, status: l.status as string })),
        terms: terms.filter((t) => t.academicCalendarId === cls.academicCalendarId).map((t) => ({ id: t.id, name: t.name, startDate: t.startDate, endDate: t.endDate })) }]]),
      discounts: discountRules, boosterPrices: new Map(),
    });
    const card = priced.cards[0]!;
    const classInfo = classInformationToStored(entry, card.cls, card.totals, { companyId: co.id, curriculumIds: prog.curriculumIds as string[], levelIds: prog.levelIds as string[], subjectId: (prog.subjectId as string) ?? null, cate: { code: prog.category as string } });
    const summaryStatic = summaryToWire(priced.summary);
    const payable = priced.summary.totalPayable;
    const created = `${issueDate}T02:00:00.000Z`;
    pas.push({
      id: paId, name, paymentStatus: paymentStatus === "overdue" ? "unpaid" : paymentStatus, type: "normal", axsCode: rng.chance(0.3) ? String(rng.int(10000000, 99999999)) : null, companyId: co.id, branchId: cls.branchId, studentId: s.id,
      issueDate, dueDate, qrExpiryDate: addDays(dueDate, 30), hasExpiryDate: true, qrReferenceNo: name ? `QR${name.replace(/-/g, "")}` : null, classInformations: [classInfo],
      isRegistrationFee: priced.registrationFeeApplied, registrationFeeConfig: { amount: money(REG_FEE), waiverPeriod: waive }, depositSettings: { amount: money(DEPOSIT) }, gst: gstPct,
      remarks: null, notes: co.paNotes, paymentSummaryStatic: summaryStatic, summary: { registrationFee: money(priced.summary.registrationFee), total: money(payable) },
      paidAt: null, status: "active",
      createdAt: created, updatedAt: created, createdBy: staffIds.front_desk, updatedBy: staffIds.front_desk,
    });
    paOfEnrol.set(e.id, paId);
    paLogs.push({ id: id(), paymentAdviceId: paId, type: "create", valueBefore: null, valueAfter: { paymentAdvice: { paymentStatus: "draft", student: { id: s.id, username: s.username } } }, createdBy: staffIds.front_desk, createdAt: created, updatedAt: created });
    if (paymentStatus !== "draft") {
      paLogs.push({ id: id(), paymentAdviceId: paId, type: "change_status", valueBefore: { paymentAdvice: { paymentStatus: "draft" } }, valueAfter: { paymentAdvice: { paymentStatus: paymentStatus === "overdue" ? "unpaid" : paymentStatus } }, createdBy: staffIds.finance_staff, createdAt: `${issueDate}T03:00:00.000Z`, updatedAt: `${issueDate}T03:00:00.000Z` });
      const invStatus = { paid: "paid", unpaid: rng.chance(0.5) ? "partial_payment" : "active", overdue: "active", voided: "voided", overpaid: "overpaid", withdrawn: "voided" }[paymentStatus] as string;
      const invId = id();
      const paid = invStatus === "paid" ? payable : invStatus === "overpaid" ? payable + 5000 : invStatus === "partial_payment" ? Math.floor(payable / 2) : 0;
      invoices.push({ id: invId, name: nextNo(co.id, "invoice", "INV"), invoiceDate: issueDate, total: money(payable), paidAmount: money(paid), invoiceStatus: invStatus, notes: null,
        reasons: invStatus === "voided" ? (paymentStatus === "withdrawn" ? "Student withdrew before the term started" : "Issued with the wrong class") : null,
        isGeneratedReceipt: paid > 0, paymentAdviceId: paId, companyId: co.id, studentId: s.id, status: "active", createdAt: created, updatedAt: created, createdBy: staffIds.finance_staff });
      if (paid > 0) {
        const parts = invStatus === "paid" && rng.chance(0.3) ? [Math.floor(paid / 2), paid - Math.floor(paid / 2)] : [paid];
        parts.forEach((amt, pi) => {
          const method = rng.pick(METHODS);
          const rid = id();
          const rdate = addDays(issueDate, 1 + pi * 5);
          receipts.push({ id: rid, name: nextNo(co.id, "receipt", "RC"), receiptDate: rdate, amount: money(amt), paymentMethod: method, cardType: method === "credit_card" ? rng.pick(["visa", "master", "amex", "union_pay"]) : method === "nets" ? "normal" : null,
            invoiceId: invId, paymentAdviceId: paId, companyId: co.id, branchId: cls.branchId, studentId: s.id, status: "active", // the finance service's receipt statuses: active, voided
            createdAt: `${rdate}T05:00:00.000Z`, updatedAt: `${rdate}T05:00:00.000Z`, createdBy: staffIds.finance_staff });
          payments.push({ id: id(), invoiceId: invId, receiptId: rid, amount: money(amt), paymentMethod: method, transactionStatus: "success", referenceNo: `TXN${rng.int(1000000, 9999999)}`, paidAt: `${rdate}T05:00:00.000Z`, status: "active" });
        });
      }
      // the PA is paid when its last receipt came in (FINANCE.md §4); its deposits are paid with it, issued from the
      // PA's issue until then (paid or not), and deleted with a voided PA — as the finance service does
      const settled = invStatus === "paid" || invStatus === "overpaid";
      if (settled) pas.at(-1)!.paidAt = payments.at(-1)!.paidAt;
      if (dep) deposits.push({ id: id(), name: nextNo(co.id, "deposit", "DEP"), amount: money(dep), depositStatus: settled ? "paid" : "issued", receiptId: settled ? receipts.at(-1)!.id : null, paymentAdviceId: paId, classId: cls.id, companyId: co.id, studentId: s.id, status: invStatus === "voided" ? "deleted" : "active" });
    }
  }
  await insertRows(tx, "payment_advices", pas);
  await insertRows(tx, "payment_advice_logs", paLogs);
  await insertRows(tx, "invoices", invoices);
  await insertRows(tx, "receipts", receipts);
  await insertRows(tx, "invoice_payments", payments);
  await tx.query(`update student_classes s set "paymentAdviceId" = x.pa from json_to_recordset($1::text::json) as x(e uuid, pa uuid) where s.id = x.e`, [JSON.stringify([...paOfEnrol].map(([e, pa]) => ({ e, pa })))]);

  // ── credit notes and refunds (FINANCE.md §6, §7: money out within money in) ────────────
  // Suspension credit notes are seeded only on their way or rejected (no money moves before approval: the
  // demo PAs bill lessons already delivered, so an issued one would credit delivered lessons). Overpaid credit
  // notes credit exactly the excess of an overpaid PA, one per invoice, net of GST so that the total is the cash
  // overpaid. The refunded refunds pay out what the student holds: one an issued overpaid credit note, one a
  // paid deposit — both become used.
  const cnClasses: Row[] = [], cnFees: Row[] = [], creditNotes: Row[] = [], cnLogs: Row[] = [];
  const overpaidInvoices = invoices.filter((i) => i.invoiceStatus === "overpaid");
  const SUSPENSION_STATUSES = ["awaiting_front_desk_action", "awaiting_finance_action", "awaiting_finance_approval", "rejected", "delete"];
  const OVERPAID_STATUSES = ["issued", "issued", "awaiting_finance_approval", "voided", "rejected"];
  const paidReceipts = receipts.filter((r) => invoices.some((i) => i.id === r.invoiceId && i.invoiceStatus === "paid"));
  const creditNote = (type: "suspension" | "overpaid", cs: string, i: number, rc: Row, excess: number) => {
    const pa = pas.find((p) => p.id === rc.paymentAdviceId)!;
    const co = companies.find((c) => c.id === pa.companyId)!;
    const info = (pa.classInformations as Array<{ id: string; responses: { unitPrice: string; total: string; lessons: number }; termInformations: Array<{ id: string; name: string; lessonIds: string[] }> }>)[0];
    const t = info.termInformations[0];
    const gstPct = Number(pa.gst) as GstPercent;
    // suspension: the billed unit price (class total ÷ lessons billed); overpaid: the excess net of GST
    const billedUnit = Math.floor(numericToCents(info.responses.total)! / Math.max(1, info.responses.lessons));
    let net = Math.round((excess * 100) / (100 + gstPct));
    while (net + percentOf(net, gstPct) > excess) net--;
    while (net + 1 + percentOf(net + 1, gstPct) <= excess) net++;
    const totals = type === "overpaid" ? creditNoteTotals({ overpaidAmount: net }, gstPct) : creditNoteTotals({ numberOfLesson: 2, unitPriceOfClass: billedUnit }, gstPct);
    const cnc = { id: id(), classId: info.id, termId: t?.id ?? null, termName: t?.name ?? null, startDate: addDays(today, 7), endDate: addDays(today, 14), lessonIds: t?.lessonIds.slice(-2) ?? [], status: "active" };
    const fee = { id: id(), numberOfLesson: type === "suspension" ? 2 : null, overpaidAmount: type === "overpaid" ? money(net) : null, unitPriceOfClass: type === "suspension" ? money(billedUnit) : null, receiptId: rc.id, status: "active" };
    cnClasses.push(cnc); cnFees.push(fee);
    const cnId = id();
    const numbered = ["issued", "used", "voided"].includes(cs); // a number is assigned when issued (FINANCE.md §2)
    const start = type === "overpaid" ? "awaiting_finance_approval" : "awaiting_front_desk_action";
    creditNotes.push({ id: cnId, name: numbered ? nextNo(co.id, "credit_note", "CN") : null, type, creditNoteStatus: cs, reason: type === "suspension" ? "Suspension for overseas trip" : "Paid twice for the same PA",
      remarks: null, summary: { subTotal: money(totals.subTotal), gst: money(totals.gst), total: money(totals.total) }, gst: gstPct, approverId: numbered ? staffIds.finance_manager : null, approvedAt: numbered ? past(10 + i) : null,
      studentId: pa.studentId, companyId: co.id, suspensionId: type === "suspension" && suspensions[i % Math.max(1, suspensions.length)] ? (suspensions[i % suspensions.length].id as string) : null,
      paymentAdviceId: pa.id, creditNoteClassId: cnc.id, creditNoteFeeId: fee.id, status: cs === "delete" ? "deleted" : "active", createdAt: past(30 - i), updatedAt: past(20 - i), createdBy: staffIds.finance_staff });
    cnLogs.push({ id: id(), creditNoteId: cnId, type: "create", valueBefore: null, valueAfter: { studentId: pa.studentId, reason: "", type, creditNoteStatus: start }, createdBy: type === "overpaid" ? staffIds.finance_staff : staffIds.front_desk, createdAt: past(30 - i), updatedAt: past(30 - i) });
    if (cs !== start) cnLogs.push({ id: id(), creditNoteId: cnId, type: "change_status", valueBefore: { creditNoteStatus: start }, valueAfter: { creditNoteStatus: cs }, createdBy: staffIds.finance_manager, createdAt: past(20 - i), updatedAt: past(20 - i) });
    return creditNotes.at(-1)!;
  };
  SUSPENSION_STATUSES.forEach((cs, i) => creditNote("suspension", cs, i, paidReceipts[(i * 3) % paidReceipts.length], 0));
  OVERPAID_STATUSES.slice(0, overpaidInvoices.length).forEach((cs, i) => {
    const inv = overpaidInvoices[i];
    creditNote("overpaid", cs, SUSPENSION_STATUSES.length + i, receipts.find((r) => r.invoiceId === inv.id)!, numericToCents(inv.paidAmount as string)! - numericToCents(inv.total as string)!);
  });

  const refunds: Row[] = [], refundClasses: Row[] = [], refundLogs: Row[] = [];
  const RF = ["awaiting_front_desk_action", "awaiting_sale_action", "awaiting_finance_approval", "rejected_by_sale", "rejected_by_finance"];
  const wEnrol = enrol.filter((e) => e.status === "withdrawn" || e.status === "withdrawal");
  type Paying = { studentId: string; classId: string; companyId: string; receiptId: string | null; amount: number; creditNoteIds: string[]; depositIds: string[] };
  const refundOf = (rs: string, i: number, pay: Paying | null) => {
    const e = wEnrol[i % wEnrol.length] ?? enrol[i];
    const cls = classes.find((c) => c.id === (pay?.classId ?? e.classId))!;
    const co = companies.find((c) => c.id === cls.companyId)!;
    const studentId = pay?.studentId ?? e.userId;
    const rc = pay ? (receipts.find((r) => r.id === pay.receiptId) ?? null) : (receipts.find((r) => r.studentId === e.userId) ?? null);
    const unitC = priceCents.get(`${cls.academicCalendarId}|${cls.programTypeId}`) ?? 5000;
    // a refund paid out here returns what the student holds (a credit note, a deposit), no lessons: they were delivered
    const left = pay ? 0 : 3 + (i % 3);
    const deduction = pay ? 0 : 2000;
    const rid = id();
    const amount = pay ? pay.amount : left * unitC - deduction;
    const withdrawal = withdrawals.find((w) => w.studentId === studentId) ?? null;
    // the summary the refund service stores: what the class lines, the credit notes and the deposits pay out
    const creditNoteAmount = pay?.creditNoteIds.length ? amount : 0;
    const depositAmount = pay?.depositIds.length ? amount : 0;
    const refundSummary = { classAmount: money(amount - creditNoteAmount - depositAmount), creditNoteAmount: money(creditNoteAmount), depositAmount: money(depositAmount), total: money(amount) };
    refunds.push({ id: rid, name: rs === "refunded" ? nextNo(co.id, "refund", "RF") : null, type: "withdrawal", refundStatus: rs, refundMethod: ["pay now", "cheque", "interbank transfer", "no refund fee"][i % 4],
      rating: ["great", "average", "good", "not good"][i % 4], reason: "Withdrawal from class", reasonReject: rs.startsWith("rejected") ? "Notice period not met" : null, noticeDate: addDays(today, -10 - i),
      issuedBy: staffIds.front_desk, payeeDetails: { name: "Parent of student", bank: "DBS Bank", accountNo: String(rng.int(100000000, 999999999)) }, studentFeedback: { rating: ["great", "average", "good", "not good"][i % 4], comment: "Schedule no longer suitable" },
      summary: refundSummary, creditNoteIds: pay?.creditNoteIds ?? [], depositIds: pay?.depositIds ?? [], studentId, companyId: co.id, withdrawalId: (withdrawal?.id as string | undefined) ?? null,
      status: "active", createdAt: past(25 - i), updatedAt: past(15 - i), createdBy: staffIds.front_desk });
    refundClasses.push({ id: id(), refundId: rid, classId: cls.id, receiptId: rc?.id ?? null, deduction: money(deduction), unitPrice: money(unitC), lastLessonDate: addDays(today, -7), leftLessonAmount: money(left * unitC), leftLessonNo: left, oweLessonNo: 0, otherPayments: [], status: "active" });
    refundLogs.push({ id: id(), refundId: rid, type: "create", valueBefore: null, valueAfter: { refundStatus: "awaiting_front_desk_action" }, createdBy: staffIds.front_desk, createdAt: past(25 - i), updatedAt: past(25 - i) });
    if (rs !== "awaiting_front_desk_action") refundLogs.push({ id: id(), refundId: rid, type: "change_status", valueBefore: { refundStatus: "awaiting_front_desk_action" }, valueAfter: { refundStatus: rs }, createdBy: staffIds.finance_manager, createdAt: past(15 - i), updatedAt: past(15 - i) });
  };
  RF.forEach((rs, i) => refundOf(rs, i, null));
  const issuedCn = creditNotes.find((c) => c.type === "overpaid" && c.creditNoteStatus === "issued");
  if (issuedCn) {
    const pa = pas.find((p) => p.id === issuedCn.paymentAdviceId)!;
    issuedCn.creditNoteStatus = "used";
    issuedCn.usedAmount = (issuedCn.summary as { total: string }).total; // a refund pays out all that is left of it
    refundOf("refunded", RF.length, { studentId: issuedCn.studentId as string, classId: (pa.classInformations as Array<{ id: string }>)[0].id, companyId: issuedCn.companyId as string,
      receiptId: (cnFees.find((f) => f.id === issuedCn.creditNoteFeeId)!.receiptId as string), amount: numericToCents((issuedCn.summary as { total: string }).total)!, creditNoteIds: [issuedCn.id as string], depositIds: [] });
  }
  const heldDeposit = deposits.find((d) => d.depositStatus === "paid");
  if (heldDeposit) {
    heldDeposit.depositStatus = "refunded";
    refundOf("refunded", RF.length + 1, { studentId: heldDeposit.studentId as string, classId: heldDeposit.classId as string, companyId: heldDeposit.companyId as string, receiptId: heldDeposit.receiptId as string,
      amount: numericToCents(heldDeposit.amount as string)!, creditNoteIds: [], depositIds: [heldDeposit.id as string] });
  }
  await insertRows(tx, "deposits", deposits);
  await insertRows(tx, "credit_note_classes", cnClasses);
  await insertRows(tx, "credit_note_fees", cnFees);
  await insertRows(tx, "credit_notes", creditNotes);
  await insertRows(tx, "credit_note_logs", cnLogs);
  await insertRows(tx, "refunds", refunds);
  await insertRows(tx, "refund_classes", refundClasses);
  await insertRows(tx, "refund_logs", refundLogs);

  const bills: Row[] = rtc.filter((r) => r.transferClassStatus === "completed" || r.transferClassStatus === "pending").map((r) => {
    const from = classes.find((c) => c.id === r.fromClassId)!;
    const fee = 4 * (priceCents.get(`${from.academicCalendarId}|${from.programTypeId}`) ?? 5000);
    return { id: id(), studentId: r.studentId, paymentAdviceId: null, requestTransferClassId: r.id, fromClassId: from.id, toClassId: r.toClassId,
      fromClass: { name: from.name, termInformations: terms.filter((t) => t.academicCalendarId === from.academicCalendarId).slice(0, 1).map((t) => ({ id: t.id, name: t.name })), classFee: money(fee) }, classFee: money(fee), status: "active" };
  });
  await insertRows(tx, "transfer_bills", bills);

  // document counters continue after the demo numbers
  await insertRows(tx, "document_counters", [...counters].map(([key, n]) => {
    const [companyId, documentType] = key.split("|");
    return { companyId, year: Y, documentType, lastNumber: n };
  }));

  // ── referrals, rewards ────────────────────────────────────────────────────────────────
  await insertRows(tx, "referrals", Array.from({ length: 6 }, (_, i) => {
    const a = activeStudents[i * 5], b = activeStudents[i * 5 + 2];
    return { id: id(), referrerId: a.id, referreeId: b.id, subjectId: byCo.get(a.companyId)!.subj.Mathematics, referralCode: `REF${a.username.slice(0, 4).toUpperCase()}${i + 1}`,
      registrationDate: addDays(today, -20 * (i + 1)), referralStattus: ["pending", "successful", "successful", "rewarded", "pending", "cancelled"][i], companyId: a.companyId, status: "active", createdAt: past(20 * (i + 1)), updatedAt: past(10 * i) };
  }));
  await insertRows(tx, "reward_reports", [1, 2, 3].map((mAgo) => {
    const d = new Date(Date.UTC(Y, Number(today.slice(5, 7)) - 1 - mAgo, 1)).toISOString().slice(0, 10);
    return { id: id(), month: d, dataStatic: { referrals: rng.int(1, 6), rewardsIssued: rng.int(0, 4), totalRewardAmount: money(rng.int(1, 6) * 5000) }, companyId: c1.id, status: "active" };
  }));

  // ── communication ─────────────────────────────────────────────────────────────────────
  const broadcasts = [
    { title: "Term 4 timetable released", via: ["email", "notification"], broadcastStatus: "sent" },
    { title: "Centre closed for National Day", via: ["sms", "email"], broadcastStatus: "sent" },
    { title: "Exam booster workshops open for registration", via: ["email"], broadcastStatus: "scheduled" },
    { title: "Fee payment reminder", via: ["email", "sms", "notification"], broadcastStatus: "draft" },
  ].map((b, i) => ({ id: id(), ...b, subject: b.title, content: `<p>Dear parents, ${b.title.toLowerCase()}.</p>`, recipientType: i % 2 ? "parent" : "student",
    filterRecipient: { branchIds: [branches[i % 4].id] }, scheduledAt: b.broadcastStatus === "scheduled" ? past(-3) : null, sentAt: b.broadcastStatus === "sent" ? past(30 - i * 10) : null,
    companyId: companies[i % 2].id, status: "active", createdBy: staffIds.sales, createdAt: past(40 - i * 5), updatedAt: past(30 - i * 5) }));
  await insertRows(tx, "broadcasts", broadcasts);
  await insertRows(tx, "broadcast_logs", broadcasts.filter((b) => b.broadcastStatus === "sent").flatMap((b) => rng.sample(activeStudents, 8).map((s, j) => ({
    id: id(), broadcastId: b.id, recipientId: s.id, smsStatus: b.via.includes("sms") ? (j === 0 ? "failed" : "sent") : null, emailStatus: b.via.includes("email") ? "sent" : null,
    notificationStatus: b.via.includes("notification") ? "sent" : null, status: "active" }))));
  const news = ["Top scorers of the mid-year exams", "New branch opening at Jurong East", "Holiday workshop highlights", "Parent-tutor meeting this Saturday"].map((t, i) => ({
    id: id(), title: t, subject: t, message: `<p>${t}.</p>`, footer: "Bright Minds Education", coverUrl: null, hashtags: ["#centre", i % 2 ? "#events" : "#results"], type: i % 2 ? "event" : "announcement",
    newsStatus: i === 3 ? "draft" : "sent", recipientType: "all", filterRecipient: {}, sentAt: i === 3 ? null : past(50 - i * 10), companyId: c1.id, status: "active", createdBy: staffIds.sales, createdAt: past(60 - i * 10), updatedAt: past(50 - i * 10) }));
  await insertRows(tx, "news", news);
  await insertRows(tx, "news_logs", news.filter((n) => n.newsStatus === "sent").flatMap((n) => rng.sample(activeStudents, 5).map((s) => ({ id: id(), newsId: n.id, recipientId: s.id, email: s.email, statusSent: "sent", status: "active" }))));
  await insertRows(tx, "news_recipients_upload", [0, 1, 2].map((i) => ({ id: id(), newsId: news[0].id, name: `Guest Parent ${i + 1}`, email: `guest${i + 1}@example.com`, status: "active" })));

  // ── content ───────────────────────────────────────────────────────────────────────────
  const ccats = ["Announcements", "Study Tips", "Events"].map((n, i) => ({ id: id(), name: n, order: i + 1, status: "active" }));
  await insertRows(tx, "content_categories", ccats);
  await insertRows(tx, "posts", Array.from({ length: 6 }, (_, i) => ({ id: id(), title: ["Welcome to the new term", "5 tips for exam revision", "Science fair recap", "Holiday schedule", "How to read a PA", "Meet our tutors"][i],
    content: "<p>Lorem ipsum dolor sit amet.</p>", coverUrl: null, datePosted: past(60 - i * 8), startDate: addDays(today, -30), endDate: addDays(today, 60), isDisplay: i !== 4, contentCategoryId: ccats[i % 3].id, status: "active", createdAt: past(60 - i * 8), updatedAt: past(50 - i * 8) })));
  await insertRows(tx, "menus", ["Home", "Programmes", "Resources", "Contact Us"].map((t, i) => ({ id: id(), title: t, link: `/${t.toLowerCase().replace(/ /g, "-")}`, index: i + 1, status: "active" })));
  const rcat1 = ["Worksheets", "Past Papers"].map((n, i) => ({ id: id(), name: n, parentId: null, level: 1, order: i + 1, status: "active" }));
  const rcat2 = [["Mathematics Worksheets", 0], ["Science Worksheets", 0], ["O Level Papers", 1]].map(([n, p], i) => ({ id: id(), name: n as string, parentId: rcat1[p as number].id, level: 2, order: i + 1, status: "active" }));
  await insertRows(tx, "resource_categories", [...rcat1, ...rcat2]);
  await insertRows(tx, "resource_posts", Array.from({ length: 5 }, (_, i) => ({ id: id(), title: ["Algebra practice set", "Chemical bonding notes", "Physics formula sheet", "Prelim paper 1", "Prelim paper 2"][i], content: "<p>Download the attached file.</p>",
    link: `https://example.com/resources/${i + 1}`, coverUrl: null, datePosted: past(40 - i * 5), isDisplay: true, resourceCategoryId: rcat2[i % 3].id, status: "active", createdAt: past(40 - i * 5), updatedAt: past(35 - i * 5) })));
  await insertRows(tx, "surveys", ["Term 1 feedback", "Tutor satisfaction survey", "Holiday workshop interest"].map((t, i) => ({ id: id(), title: t, content: `<p>${t}</p>`, link: `https://example.com/survey/${i + 1}`, date: addDays(today, -30 * i), status: "active" })));
  await insertRows(tx, "enquiries", Array.from({ length: 6 }, (_, i) => ({ id: id(), name: `${rng.pick(FIRST)} ${rng.pick(LAST)}`, message: ["Do you have Sec 3 chemistry classes on Saturdays?", "What are the fees for JC maths?", "Can my child join mid-term?", "Is there a trial lesson?", "Do you offer IB physics?", "Are there holiday workshops?"][i],
    phoneNumber: `+65 9${rng.int(1000000, 9999999)}`, email: `enquirer${i + 1}@example.com`, type: i % 2 ? "course" : "general", companyId: companies[i % 2].id, status: ["new", "new", "in_progress", "closed", "new", "in_progress"][i], createdAt: past(i * 3 + 1), updatedAt: past(i * 3) })));
  const HOL: Array<[string, number, number]> = [["New Year's Day", 1, 1], ["Chinese New Year", 2, 17], ["Chinese New Year (2nd day)", 2, 18], ["Good Friday", 4, 3], ["Labour Day", 5, 1], ["Vesak Day", 5, 31], ["Hari Raya Haji", 5, 27], ["National Day", 8, 9], ["Deepavali", 11, 8], ["Christmas Day", 12, 25]];
  await insertRows(tx, "holidays", HOL.map(([n, m, d]) => ({ id: id(), name: n, description: "Public holiday", date: day(Y, m, d), startTime: sgTime(day(Y, m, d), "00:00"), endTime: sgTime(day(Y, m, d), "23:59"), companyId: null, status: "active" })));

  // role user counts
  await tx.query(`update roles r set "totalUsers" = (select count(*) from users u where u."multipleRoles" ? r.name and u.status <> 'deleted')`);
}
