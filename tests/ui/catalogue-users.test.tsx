/**
 * The hand-written user form (issue 7 §1) against the real in-process server: the username is suggested
 * from the first and last name (GET /users/username/suggest) until typed by hand; saving POST /users
 * creates the user with a temporary password mailed through the outbox and opens the user's view.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();

const usernameInput = () => document.querySelector("#field-username") as HTMLInputElement;

describe("user form: username suggestion", () => {
  it("suggests a free username from the first and last name; a hand-typed one is kept; saving creates the user and mails a temporary password", async () => {
    await signInAs(server.baseUrl, "hr");
    await renderResources(resources, "/user/create");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("First Name", {}, { timeout: 20_000 }), "Multi");
    await user.type(screen.getByLabelText("Last Name"), "Role");
    // "multirole" is free ("multi_role" is not the same name), so it is suggested as is
    await waitFor(() => expect(usernameInput().value).toBe("multirole"), { timeout: 10_000 });
    await user.clear(screen.getByLabelText("Last Name"));
    await user.type(screen.getByLabelText("Last Name"), "Person");
    await waitFor(() => expect(usernameInput().value).toBe("multiperson"), { timeout: 10_000 });

    // typed by hand: the names no longer overwrite it
    await user.clear(usernameInput());
    await user.type(usernameInput(), "my name");
    await waitFor(() => expect(document.body.textContent).toContain("Not allow space for username"));
    await user.clear(usernameInput());
    await user.type(usernameInput(), "m.person");
    await user.type(screen.getByLabelText("Last Name"), "x");
    await new Promise((r) => setTimeout(r, 700));
    expect(usernameInput().value).toBe("m.person");

    // the Suggest button asks again
    await user.click(screen.getByRole("button", { name: "Suggest" }));
    await waitFor(() => expect(usernameInput().value).toBe("multipersonx"), { timeout: 10_000 });

    await user.type(screen.getByLabelText("Email"), "multi.personx@example.com");
    fireEvent.mouseDown(screen.getByLabelText("Roles"));
    await user.click(await screen.findByTitle("Sales"));
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(probe.location).toMatch(/^\/user\/[0-9a-f-]+\/view$/), { timeout: 20_000 });
    const { rows } = await server.db.query<{ id: string; role: string; multipleRoles: string[] }>(`select id, role, "multipleRoles" from users where username = 'multipersonx'`);
    expect(rows[0]).toMatchObject({ role: "sales", multipleRoles: ["sales"] });
    expect(probe.location).toBe(`/user/${rows[0]!.id}/view`);
    const mail = await server.db.query<{ body: string }>(`select body from outbox where recipient = 'multi.personx@example.com'`);
    expect(mail.rows[0]?.body).toMatch(/Temporary password: /);
    await screen.findByText("Not locked", {}, { timeout: 20_000 });
  });
});

describe("user form: identity fields (issue 32 §1)", () => {
  it("on one's own account a changed e-mail asks for the current password: a wrong one shows under the field, the right one saves", async () => {
    await signInAs(server.baseUrl, "hr");
    const { rows } = await server.db.query<{ id: string; email: string }>(`select id, email from users where username = 'hr'`);
    await renderResources(resources, `/user/${rows[0]!.id}/update`);
    const user = userEvent.setup();
    const email = (await screen.findByLabelText("Email", {}, { timeout: 20_000 })) as HTMLInputElement;
    expect(screen.queryByLabelText("Current Password")).toBeNull();
    await user.clear(email);
    await user.type(email, "hr.own@example.com");
    const password = await screen.findByLabelText("Current Password");
    await user.type(password, "not-my-password");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getAllByText("The current password is incorrect.").length).toBeGreaterThan(0), { timeout: 20_000 });
    // antd leaves the spinner (and its label in the button's name) under jsdom once it has loaded
    const save = await screen.findByRole("button", { name: /Save$/ }, { timeout: 20_000 });
    expect((await server.db.query<{ email: string }>(`select email from users where id = $1`, [rows[0]!.id])).rows[0]!.email).toBe(rows[0]!.email);
    await user.clear(password);
    await user.type(password, "Demo@12345");
    await waitFor(() => expect(save.classList.contains("ant-btn-loading")).toBe(false));
    await user.click(save);
    await waitFor(() => expect(probe.location).toBe(`/user/${rows[0]!.id}/view`), { timeout: 20_000 });
    expect((await server.db.query<{ email: string }>(`select email from users where id = $1`, [rows[0]!.id])).rows[0]!.email).toBe("hr.own@example.com");
  });

  it("on another staff member's account a non-admin sees the identity fields fixed and can still save the rest", async () => {
    await signInAs(server.baseUrl, "attendance_checker");
    const { rows } = await server.db.query<{ id: string }>(`select id from users where username = 'finance_manager'`);
    await renderResources(resources, `/user/${rows[0]!.id}/update`);
    const user = userEvent.setup();
    const email = (await screen.findByLabelText("Email", {}, { timeout: 20_000 })) as HTMLInputElement;
    expect(email.disabled).toBe(true);
    expect(usernameInput().disabled).toBe(true);
    const address = screen.getByLabelText("Address");
    await user.type(address, "3 Marina Boulevard");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(probe.location).toBe(`/user/${rows[0]!.id}/view`), { timeout: 20_000 });
    expect((await server.db.query<{ address: string }>(`select address from users where id = $1`, [rows[0]!.id])).rows[0]!.address).toBe("3 Marina Boulevard");
  });
});
