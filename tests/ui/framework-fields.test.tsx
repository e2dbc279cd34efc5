/**
 * Every field kind: its form input (typed into as a user would), the value sent over GraphQL, its list
 * cell / show rendering and its filter. The image kind uploads to the real in-process server.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App as AntdApp, Button, Form } from "antd";
import { useState } from "react";
import { defineResource } from "../../src/framework/defineResource.ts";
import * as field from "../../src/framework/fields.ts";
import { KINDS, encodeValues, renderValue } from "../../src/framework/kinds.tsx";
import { KIND_INPUTS } from "../../src/framework/kindInputs.tsx";
import { MoneyInput } from "../../src/framework/inputs/MoneyInput.tsx";
import { MediaUpload } from "../../src/framework/inputs/MediaUpload.tsx";
import { fieldRules } from "../../src/framework/pages/FormPage.tsx";
import { RICH_TEXT_FONTS } from "../../src/framework/richText.ts";
import { configureFramework } from "../../src/framework/media.ts";
import { nameLike, username, numericOnly, minLength } from "../../src/domain/validators.ts";
import { startFrameworkUiServer, type FrameworkUiServer } from "../support/ui-server-framework.ts";
import { installDomGaps } from "./shell-support.ts";
import { DEMO_PASSWORD } from "../../server/db/seed-demo.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const gadgets = defineResource({
  table: "gadgets",
  label: "Gadgets",
  routes: { list: "/gadgets" },
  fields: {
    name: field.text("Name", { required: true, rules: [nameLike] }),
    login: field.text("Login", { rules: [username, minLength(3)] }),
    code: field.text("Code", { rules: [numericOnly()] }),
    notes: field.longText("Notes"),
    quantity: field.number("Quantity"),
    price: field.money("Price"),
    day: field.date("Day"),
    opensAt: field.time("Opens At"),
    kind: field.enumOf("Kind", { small: "Small", large: "Large" }),
    active: field.boolean("Active"),
    contact: field.email("Contact"),
    phone: field.phone("Phone"),
    fees: field.amountRows("Fees"),
  },
});
const f = (name: string) => gadgets.fieldList.find((x) => x.name === name)!;

function GadgetForm({ onValues }: { onValues: (v: Record<string, unknown>) => void }) {
  const [form] = Form.useForm();
  return (
    <AntdApp>
      <Form form={form} layout="vertical" onFinish={(v) => onValues(encodeValues(gadgets.fieldList, v))}>
        {gadgets.fieldList.map((fd) => {
          const kind = KIND_INPUTS[fd.kind];
          const ctx = { disabled: false, folder: "gadgets" };
          const rules = fieldRules(fd, (_k, t) => t);
          if (kind.formItem) return kind.formItem(fd, rules, ctx);
          return (
            <Form.Item key={fd.name} name={fd.name} label={fd.label} rules={rules} valuePropName={kind.valuePropName} htmlFor={`field-${fd.name}`}>
              {cloneWithId(kind.input(fd, ctx), `field-${fd.name}`)}
            </Form.Item>
          );
        })}
        <Button htmlType="submit">Save</Button>
      </Form>
    </AntdApp>
  );
}
import { cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
const cloneWithId = (n: ReactNode, id: string) => (isValidElement(n) ? cloneElement(n as ReactElement<{ id?: string }>, { id }) : n);

beforeAll(() => installDomGaps());

describe("the S$ currency input", () => {
  function Harness({ initial }: { initial?: number | null }) {
    const [cents, setCents] = useState<number | null | undefined>(initial);
    return (
      <>
        <MoneyInput aria-label="amount" value={cents} onChange={setCents} />
        <output data-testid="cents">{String(cents)}</output>
      </>
    );
  }
  it("prefix, minus sign when negative, thousands grouping, two decimals, extra digits cut", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText("amount") as HTMLInputElement;
    await user.type(input, "-1234567.891");
    expect(input.value).toBe("-S$1,234,567.89");
    expect(screen.getByTestId("cents").textContent).toBe("-123456789");
    await user.clear(input);
    await user.type(input, "12.5");
    expect(input.value).toBe("S$12.5");
    fireEvent.blur(input);
    expect(input.value).toBe("S$12.50");
    expect(screen.getByTestId("cents").textContent).toBe("1250");
  });
  it("shows a value given in cents", () => {
    render(<Harness initial={5} />);
    expect((screen.getByLabelText("amount") as HTMLInputElement).value).toBe("S$0.05");
  });
});

describe("form inputs of every kind send GraphQL values", () => {
  it("text, long text, number, money, date, time, enum, boolean, email, phone and {name, amount} rows", async () => {
    const user = userEvent.setup();
    let sent: Record<string, unknown> | undefined;
    render(<GadgetForm onValues={(v) => (sent = v)} />);
    await user.type(screen.getByLabelText("Name"), "Mary-Ann O'Neil");
    await user.type(screen.getByLabelText("Notes"), "line one");
    await user.type(screen.getByLabelText("Quantity"), "7");
    await user.type(await screen.findByLabelText("Price"), "1234.5");
    await user.click(screen.getByLabelText("Day"));
    await user.type(screen.getByLabelText("Day"), "2026-03-01{enter}");
    await user.click(screen.getByLabelText("Opens At"));
    await user.type(screen.getByLabelText("Opens At"), "09:30:00{enter}");
    fireEvent.mouseDown(screen.getByLabelText("Kind"));
    await user.click(await screen.findByTitle("Large"));
    await user.click(await screen.findByLabelText("Active"));
    await user.type(screen.getByLabelText("Contact"), "mary@example.com");
    await user.type(screen.getByLabelText("Phone number"), "91234567");
    await user.click(screen.getByRole("button", { name: /Add/ }));
    await user.type(screen.getByPlaceholderText("Name"), "Material fee");
    await user.type(screen.getByPlaceholderText("Amount"), "-20");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent).toBeDefined());
    expect(sent).toMatchObject({
      name: "Mary-Ann O'Neil",
      notes: "line one",
      quantity: 7,
      price: "1234.50",
      day: "2026-03-01",
      opensAt: "09:30:00",
      kind: "large",
      active: true,
      contact: "mary@example.com",
      phone: { code: "+65", number: "91234567" },
      fees: [{ name: "Material fee", amount: "-20.00" }],
    });
  });

  it("shows the spec's validation messages under the fields", async () => {
    const user = userEvent.setup();
    render(<GadgetForm onValues={() => undefined} />);
    await user.type(screen.getByLabelText("Name"), "Mary  Ann");
    await user.type(screen.getByLabelText("Login"), "a b");
    await user.type(screen.getByLabelText("Code"), "12a");
    await user.type(screen.getByLabelText("Contact"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Space and Special characters not allowed")).toBeTruthy();
    expect(await screen.findByText("Not allow space for username")).toBeTruthy();
    expect(await screen.findByText("invalid_number")).toBeTruthy();
    expect(await screen.findByText("Please enter a valid email!")).toBeTruthy();
    await user.clear(screen.getByLabelText("Login"));
    await user.type(screen.getByLabelText("Login"), "ab");
    expect(await screen.findByText("At_least_3_characters")).toBeTruthy();
    await user.clear(screen.getByLabelText("Name"));
    expect(await screen.findByText("Please input Name!")).toBeTruthy();
  });
});

describe("list cells and show rendering", () => {
  const shown = (name: string, value: unknown) => {
    const { container, unmount } = render(<>{renderValue(f(name), value)}</>);
    const text = container.textContent;
    unmount();
    return text;
  };
  it.each([
    ["price", "-1234.5", "-S$1,234.50"],
    ["day", "2026-03-01", "01/03/2026"],
    ["opensAt", "09:30:00", "09:30:00"],
    ["kind", "large", "Large"],
    ["phone", { code: "+65", number: "91234567" }, "+65 91234567"],
    ["fees", [{ name: "Deposit", amount: "100" }], "Deposit: S$100.00"],
    ["quantity", 7, "7"],
    ["name", null, ""],
  ])("%s %j shows %j", (name, value, text) => expect(shown(name, value)).toBe(text));
  it("date-time in Asia/Singapore as 'HH:mm, DD/MM/YYYY'", () => {
    const dt = { ...f("day"), kind: "dateTime" as const };
    const { container } = render(<>{renderValue(dt, "2026-02-03T13:05:00Z")}</>);
    expect(container.textContent).toBe("21:05, 03/02/2026");
  });
  it("boolean as a checkbox", () => {
    const { container } = render(<>{renderValue(f("active"), true)}</>);
    expect((container.querySelector("input[type=checkbox]") as HTMLInputElement).checked).toBe(true);
  });
});

describe("filters of each kind become Hasura filters", () => {
  it.each([
    ["name", "Mary", [{ field: "name", operator: "contains", value: "Mary" }]],
    ["kind", "large", [{ field: "kind", operator: "eq", value: "large" }]],
    ["active", false, [{ field: "active", operator: "eq", value: false }]],
    ["price", 1250, [{ field: "price", operator: "eq", value: "12.50" }]],
    ["quantity", undefined, [{ field: "quantity", operator: "eq", value: undefined }]],
  ])("%s = %j", (name, value, filters) => {
    expect(KINDS[f(name).kind].toFilters!(f(name), value)).toEqual(filters);
    if (value !== undefined) expect(KINDS[f(name).kind].fromFilters!(f(name), filters as never)).toEqual(value);
  });
  it("date ranges are two bounds", async () => {
    const { dayjs } = await import("../../src/domain/dates.ts");
    const range = [dayjs("2026-03-01"), dayjs("2026-03-31")];
    expect(KINDS.date.toFilters!(f("day"), range)).toEqual([
      { field: "day", operator: "gte", value: "2026-03-01" },
      { field: "day", operator: "lte", value: "2026-03-31" },
    ]);
    const dt = { ...f("day"), kind: "dateTime" as const };
    expect(KINDS.dateTime.toFilters!(dt, range)).toEqual([
      { field: "day", operator: "gte", value: "2026-02-28T16:00:00.000Z" },
      { field: "day", operator: "lte", value: "2026-03-31T15:59:59.000Z" },
    ]);
  });
});

describe("rich text: Quill with the spec's fonts and 90 colours", () => {
  it("offers the eleven fonts and the 90-colour palette", async () => {
    const { RichTextInput } = await import("../../src/framework/inputs/RichTextInput.tsx");
    const { container } = render(<RichTextInput value="<p>Hello</p>" />);
    await waitFor(() => expect(container.querySelector(".ql-editor")).not.toBeNull(), { timeout: 20_000 });
    const fonts = [...container.querySelectorAll(".ql-font .ql-picker-item")].map((o) => o.getAttribute("value") ?? o.getAttribute("data-value"));
    expect(fonts).toEqual([...RICH_TEXT_FONTS]);
    expect(container.querySelectorAll(".ql-color .ql-picker-item").length).toBe(90);
    expect(container.querySelectorAll(".ql-background .ql-picker-item").length).toBe(90);
  });
});

describe("image upload (avatar rules) against the real server", () => {
  let server: FrameworkUiServer;
  beforeAll(async () => {
    server = await startFrameworkUiServer();
    const res = await fetch(`${server.baseUrl}/auth/sign-in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: DEMO_PASSWORD }) });
    const token = ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
    configureFramework({
      apiBase: `${server.baseUrl}/api/v2`,
      mediaBase: server.baseUrl,
      apiFetch: (input, init) => fetch(input, { ...init, headers: { authorization: `Bearer ${token}` } }),
    });
  }, 120_000);
  afterAll(async () => server?.close());

  function Upload() {
    const [value, setValue] = useState<string | null>(null);
    return (
      <AntdApp>
        <MediaUpload kind="image" folder="gadgets" value={value} onChange={setValue} id="upload" />
        <output data-testid="value">{value ?? ""}</output>
      </AntdApp>
    );
  }
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const pick = async (file: File) => {
    const input = document.querySelector("#upload") as HTMLInputElement;
    await act(async () => {
      fireEvent.change(input, { target: { files: [file] } });
    });
  };

  it("uploads a png and keeps its public URL, which serves the image", async () => {
    render(<Upload />);
    await pick(new File([PNG], "logo.png", { type: "image/png" }));
    await waitFor(() => expect(screen.getByTestId("value").textContent).toMatch(/\/media\/public\?key=gadgets%2F.+logo\.png$/), { timeout: 20_000 });
    const res = await fetch(screen.getByTestId("value").textContent!);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
  });

  it("refuses an image over 5,000,000 bytes with 'The image size exceeds the allowable limit.'", async () => {
    render(<Upload />);
    await pick(new File([new Uint8Array(5_000_001)], "big.png", { type: "image/png" }));
    expect(await screen.findByText("The image size exceeds the allowable limit.")).toBeTruthy();
    expect(screen.getByTestId("value").textContent).toBe("");
  });

  it("warns 'Upload failed!' when the server refuses the file", async () => {
    render(<Upload />);
    await pick(new File(["<html>not an image</html>"], "fake.png", { type: "image/png" }));
    expect(await screen.findByText("Upload failed!", {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByTestId("value").textContent).toBe("");
  });
});
