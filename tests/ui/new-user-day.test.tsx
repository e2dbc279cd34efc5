/**
 * A new user's day (issue 37) against the real in-process server: what a member of staff hit on first use —
 * dates typed as DD/MM/YYYY, Enter in a date field, labels in words, screens that open where work is.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();

describe("a new user's day: dates", () => {
  it("a date of birth typed as 15/03/2012 is kept and shown as 15/03/2012, and Enter in the field does not submit the form", async () => {
    const student = (await server.db.query<{ id: string }>(`select id from users where type = 'student' and status = 'active' order by username limit 1`)).rows[0]!;
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/student-management/edit-account/${student.id}`);
    const user = userEvent.setup();
    const dob = (await screen.findByLabelText("Date of Birth", {}, { timeout: 20_000 })) as HTMLInputElement;
    await user.clear(dob);
    await user.type(dob, "15/03/2012{Enter}");
    await waitFor(() => expect(dob.value).toBe("15/03/2012"));
    // Enter picked the day; the form was not sent
    expect(probe.location).toBe(`/student-management/edit-account/${student.id}`);
    fireEvent.blur(dob);
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(probe.location).toBe(`/student-management/student/${student.id}/view`), { timeout: 20_000 });
    const saved = (await server.db.query<{ dob: string }>(`select to_char(dob, 'YYYY-MM-DD') as dob from users where id = $1`, [student.id])).rows[0]!;
    expect(saved.dob).toBe("2012-03-15");
    expect(await screen.findByText("15/03/2012", {}, { timeout: 20_000 })).toBeTruthy();
  });
});
