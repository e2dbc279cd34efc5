/**
 * The student account wizard (issue 12) against the real in-process server: each step shows the spec's
 * validation messages under its inputs and moves on only when its call has saved; the draft's
 * currentStep follows the steps.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const text = () => document.body.textContent ?? "";

async function pick(label: string, option: string) {
  fireEvent.mouseDown(screen.getByLabelText(label));
  fireEvent.click(await screen.findByTitle(option, {}, { timeout: 10_000 }));
}

describe("student account wizard: validation of each step", () => {
  it("account, family and student steps refuse bad input with the spec's messages and save a resumable draft step by step", async () => {
    const branch = (await server.db.query<{ name: string }>(`select name from branches where status = 'active' order by name limit 1`)).rows[0]!.name;
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, "/student-management/create-account");
    const user = userEvent.setup();

    // step 1: account
    const next = await screen.findByRole("button", { name: "Next" }, { timeout: 20_000 });
    await user.click(next);
    await waitFor(() => expect(text()).toContain("Please input First Name!"));
    expect(text()).toContain("Please input Last Name!");
    expect(text()).toContain("Please input Username!");
    expect(text()).toContain("Please select branch!");
    await user.type(screen.getByLabelText("First Name"), "Ann!");
    await waitFor(() => expect(text()).toContain("Space and Special characters not allowed"));
    await user.clear(screen.getByLabelText("First Name"));
    await user.type(screen.getByLabelText("First Name"), "Wizard");
    await user.type(screen.getByLabelText("Last Name"), "Pupil");
    await waitFor(() => expect((screen.getByLabelText("Username") as HTMLInputElement).value).toBe("wizardpupil"), { timeout: 10_000 });
    await user.clear(screen.getByLabelText("Username"));
    await user.type(screen.getByLabelText("Username"), "wizard pupil");
    await waitFor(() => expect(text()).toContain("Not allow space for username"));
    await user.clear(screen.getByLabelText("Username"));
    await user.type(screen.getByLabelText("Username"), "wizard.pupil");
    await pick("Branch", branch);
    await user.click(next);
    await screen.findByRole("button", { name: /Add Parent/ }, { timeout: 20_000 });
    const draft = async () => (await server.db.query<{ id: string; status: string; currentStep: number; parents: unknown[] }>(`select id, status, "currentStep", parents from users where username = 'wizard.pupil'`)).rows[0]!;
    const created = await draft();
    expect(created).toMatchObject({ status: "draft", currentStep: 1 });
    await waitFor(() => expect(probe.location).toContain(`id=${created.id}`));

    // step 2: family
    await user.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(text()).toContain("Please input First Name!"));
    expect(text()).toContain("Please input Phone!");
    await user.click(screen.getByRole("checkbox", { name: "Primary contact" }));
    await user.type(screen.getByLabelText("First Name", { selector: "#parent-0-firstName" }), "Kok-Wah");
    const phone = screen.getByTestId("parent-0-phone").querySelector("input[aria-label='Phone number']") as HTMLInputElement;
    await user.type(phone, "91234567");
    await user.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(text()).toContain("Choose exactly one primary contact."));
    // a second parent made primary takes the mark from the first: exactly one
    await user.click(screen.getByRole("checkbox", { name: "Primary contact" }));
    await user.click(screen.getByRole("button", { name: /Add Parent/ }));
    const boxes = () => screen.getAllByRole("checkbox", { name: "Primary contact" }) as HTMLInputElement[];
    await waitFor(() => expect(boxes()).toHaveLength(2));
    await user.click(boxes()[1]!);
    expect(boxes().map((b) => b.checked)).toEqual([false, true]);
    await user.type(screen.getByLabelText("First Name", { selector: "#parent-1-firstName" }), "Mei");
    await user.type(screen.getByTestId("parent-1-phone").querySelector("input[aria-label='Phone number']") as HTMLInputElement, "87654321");
    expect(await draft()).toMatchObject({ currentStep: 1, parents: [] });
    await user.click(screen.getByRole("button", { name: "Next" }));
    await screen.findByRole("button", { name: "Finish" }, { timeout: 20_000 });
    const saved = await draft();
    expect(saved.currentStep).toBe(2);
    expect(saved.parents).toEqual([
      expect.objectContaining({ firstName: "Kok-Wah", primaryContact: false, isEmergencyContact: true }),
      expect.objectContaining({ firstName: "Mei", primaryContact: true }),
    ]);

    // step 3: student information
    await user.click(screen.getByRole("button", { name: "Finish" }));
    await waitFor(() => expect(text()).toContain("Please select school!"));
    expect(text()).toContain("Please select curriculum!");
    expect(text()).toContain("Please select level!");
    expect((screen.getByRole("switch", { name: "Subscribe" }) as HTMLButtonElement).getAttribute("aria-checked")).toBe("true");
    expect((screen.getByRole("switch", { name: "Pay Online" }) as HTMLButtonElement).getAttribute("aria-checked")).toBe("false");
    expect(await draft()).toMatchObject({ status: "draft", currentStep: 2 });
  });
});
