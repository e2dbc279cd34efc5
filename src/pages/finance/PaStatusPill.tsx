/** The PA status pill (spec part 2 §4): the shown status (Overdue derived) with the spec's label and colour. */
import { Tag } from "antd";
import { enumLabel } from "../../framework/enumLabel.ts";
import { PA_STATUS_COLOURS, displayPaStatus, type PaStatus } from "../../domain/finance/paymentAdviceStatus.ts";

/** The spec's colour names as antd tag colours ("brown" has no preset). */
const TAG_COLOURS: Record<(typeof PA_STATUS_COLOURS)[PaStatus], string> = {
  warning: "warning",
  brown: "#8b5a2b",
  success: "success",
  danger: "error",
  primary: "blue",
};

export function PaStatusPill({ paymentStatus, dueDate }: { paymentStatus: string; dueDate: string | null | undefined }) {
  const shown = displayPaStatus(paymentStatus, dueDate);
  return (
    <Tag color={TAG_COLOURS[PA_STATUS_COLOURS[shown]]} data-testid="pa-status" style={{ borderRadius: 12 }}>
      {enumLabel("payment_advices", "paymentStatus", shown)}
    </Tag>
  );
}
