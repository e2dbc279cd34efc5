/**
 * The side menu (spec part 1 §2 "Layout", §6 "Menu"): the top-level groups in the spec's order with the
 * pages each one links to, and the pure rules that turn "may this role open that page?" into a menu.
 *
 * Admin gets the full menu. Any other user gets, for each of their roles, the top-level entries that hold
 * at least one page the role may open (with only those pages), and the menus of all their roles are
 * merged and de-duplicated by key, in the canonical order below.
 */

export type MenuGroupKey =
  | "companies"
  | "users"
  | "branches"
  | "students"
  | "programmes"
  | "classes"
  | "finance"
  | "rewards"
  | "communication"
  | "report"
  | "attendance"
  | "content-management"
  | "enquiry";

export interface MenuItem {
  /** Unique over the whole menu: the page's path. */
  key: string;
  label: string;
  path: string;
}

export interface MenuGroup {
  key: MenuGroupKey;
  /** The label the spec gives the top-level entry (also the policy's `menu:<Label>` object). */
  label: string;
  items: MenuItem[];
}

const item = (label: string, path: string): MenuItem => ({ key: path, label, path });

/** The full (admin) menu: Companies, Users, Branches, Students, Programmes, Classes, Finance, Rewards, Communication, Report, Attendance, Content Management, Enquiry. */
export const MENU_TREE: readonly MenuGroup[] = [
  { key: "companies", label: "Companies", items: [item("Companies", "/company")] },
  { key: "users", label: "Users", items: [item("Users", "/user"), item("User Roles", "/roles"), item("Audit Log", "/audit-log")] },
  { key: "branches", label: "Branches", items: [item("Branches", "/branch")] },
  {
    key: "students",
    label: "Students",
    items: [item("Student Management", "/student-management"), item("Suspension", "/suspension"), item("Withdrawal", "/withdrawal")],
  },
  {
    key: "programmes",
    label: "Programmes",
    items: [
      item("Curriculum & Level", "/programme/curriculum-level"),
      item("Categories & Type", "/programme/categories-type"),
      item("Academic Term", "/programme/academic-term"),
      item("Programme Management", "/programme/management"),
      item("Holiday", "/programme/holiday"),
    ],
  },
  { key: "classes", label: "Classes", items: [item("Class Management", "/class/management")] },
  {
    key: "finance",
    label: "Finance",
    items: [
      item("Payment Advice", "/finance/payment-advice"),
      item("Invoice", "/finance/invoice"),
      item("Receipt", "/finance/receipt"),
      item("Deposit", "/finance/deposit"),
      item("Credit Note", "/finance/credit-note"),
      item("Refund", "/finance/refund"),
      item("Payment Setting", "/finance/payment-setting"),
      item("Payment Discount", "/finance/payment-discount"),
      item("Pricing", "/finance/pricing"),
      item("Bank Reconciliation", "/finance/bank-reconciliation"),
      item("Payment Reminders", "/finance/reminders"),
      item("Accounting Export", "/finance/ledger-export"),
      item("Billing Run", "/finance/billing-run"),
    ],
  },
  { key: "rewards", label: "Rewards", items: [item("Reward Report", "/reward/report"), item("Referral", "/reward/referral")] },
  {
    key: "communication",
    label: "Communication",
    items: [
      item("Broadcast", "/communication/broadcast"),
      item("News", "/communication/news"),
      item("Three Times Absent", "/communication/three-times-absent"),
      item("Unsubscribers", "/communication/unsubscribers"),
    ],
  },
  {
    key: "report",
    label: "Report",
    items: [
      item("Daily Receipt Report", "/report/daily-receipt-report"),
      item("Daily Closing Report", "/report/daily-closing-report"),
      item("Overpaid Report", "/report/overpaid-report"),
      item("PA Listing", "/report/pa-listing"),
      item("Student Attendance Report", "/report/student-attendance-report"),
      item("Enrollment List", "/report/enrollment-list"),
      item("Enrollment List (New)", "/report/enrollment-list-new"),
      item("Revenue Recognition", "/report/revenue-recognition"),
      item("Deposit Report", "/report/deposit"),
    ],
  },
  {
    key: "attendance",
    label: "Attendance",
    items: [
      item("Attendance List", "/attendance/list"),
      item("Attendance Monitor", "/attendance/monitor"),
      item("Gantry Record", "/attendance/gantry-record"),
    ],
  },
  {
    key: "content-management",
    label: "Content Management",
    items: [
      item("Category", "/content-management/category"),
      item("Resource Category", "/content-management/resource/category"),
      item("Post", "/content-management/post"),
      item("Resource Detail", "/content-management/resource/detail"),
      item("Survey", "/content-management/survey"),
    ],
  },
  { key: "enquiry", label: "Enquiry", items: [item("Enquiry", "/enquiry")] },
];

/** The menu one role gets: the groups holding at least one page `canOpen` allows, with only those pages. */
export function buildMenu(canOpen: (path: string) => boolean, tree: readonly MenuGroup[] = MENU_TREE): MenuGroup[] {
  const menu: MenuGroup[] = [];
  for (const group of tree) {
    const items = group.items.filter((i) => canOpen(i.path));
    if (items.length > 0) menu.push({ ...group, items });
  }
  return menu;
}

/** Merges menus, de-duplicating groups and pages by key, in the order of `tree`. */
export function mergeMenus(menus: readonly (readonly MenuGroup[])[], tree: readonly MenuGroup[] = MENU_TREE): MenuGroup[] {
  const groups = new Map<string, Set<string>>();
  for (const menu of menus) {
    for (const group of menu) {
      const keys = groups.get(group.key) ?? new Set<string>();
      for (const i of group.items) keys.add(i.key);
      groups.set(group.key, keys);
    }
  }
  const merged: MenuGroup[] = [];
  for (const group of tree) {
    const keys = groups.get(group.key);
    if (!keys) continue;
    const items = group.items.filter((i) => keys.has(i.key));
    if (items.length > 0) merged.push({ ...group, items });
  }
  return merged;
}

/**
 * The menu of a user: admin gets the full tree; otherwise one menu per role, merged.
 * `canRoleOpen(role, path)` is the access policy's route check for one role.
 */
export function menuForRoles(
  roles: readonly string[],
  canRoleOpen: (role: string, path: string) => boolean,
  tree: readonly MenuGroup[] = MENU_TREE,
): MenuGroup[] {
  if (roles.includes("admin")) return tree.map((g) => ({ ...g, items: [...g.items] }));
  return mergeMenus(
    roles.map((role) => buildMenu((path) => canRoleOpen(role, path), tree)),
    tree,
  );
}

/** The labels of the top-level entries, in order (what a user sees when the menu is collapsed to groups). */
export function menuLabels(menu: readonly MenuGroup[]): string[] {
  return menu.map((g) => g.label);
}

/** The group a path belongs to (its menu page is the path itself or its longest prefix), if any. */
export function menuEntryFor(pathname: string, tree: readonly MenuGroup[] = MENU_TREE): { group: MenuGroup; item: MenuItem } | undefined {
  let best: { group: MenuGroup; item: MenuItem } | undefined;
  for (const group of tree) {
    for (const i of group.items) {
      if (pathname === i.path || pathname.startsWith(`${i.path}/`)) {
        if (!best || i.path.length > best.item.path.length) best = { group, item: i };
      }
    }
  }
  return best;
}
