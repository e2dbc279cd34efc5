/**
 * The browser shows the line maximum of FINANCE.md §1 on a PA's amount rows before the server refuses it;
 * a row within the bound shows nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Form } from "antd";
import { AmountRows } from "../../src/pages/finance/builder/AmountRows.tsx";
import { installDomGaps } from "./shell-support.ts";

beforeAll(installDomGaps);

function Rows() {
  return (
    <Form initialValues={{ rows: [{ name: "Books", amount: null }] }}>
      <AmountRows name={["rows"]} title="Other payments" addLabel="Add" />
    </Form>
  );
}

describe("amount rows: a line is at most S$1,000,000.00", () => {
  it("S$1,000,000.01 shows the bound's message; S$1,000,000.00 does not", async () => {
    render(<Rows />);
    const amount = screen.getByLabelText("Other payments amount");
    fireEvent.change(amount, { target: { value: "1000000.01" } });
    expect(await screen.findByText("A line may be at most S$1,000,000.00.")).toBeTruthy();
    fireEvent.change(amount, { target: { value: "1000000.00" } });
    await waitFor(() => expect(screen.queryByText("A line may be at most S$1,000,000.00.")).toBeNull());
  });
});
