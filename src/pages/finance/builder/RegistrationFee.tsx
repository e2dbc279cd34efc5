/**
 * Registration Fee (spec part 2 §2, §4): the Apply switch, forced off and disabled when the issue date is
 * inside the waiver period (or the form is disabled); the read-only amount (placeholder S$00.00); the
 * 'Waived' tag when the fee is waived; 'Waiver period: start - end'.
 */
import { Card, Form, Input, Space, Switch, Tag, Typography } from "antd";
import { DISPLAY_DATE_FORMAT, formatCalendarDay } from "../../../domain/dates.ts";
import { formatMoney, type Cents } from "../../../domain/money.ts";
import { isInWaiverPeriod, type WaiverPeriod } from "../../../domain/finance/registrationFee.ts";

export interface RegistrationFeeProps {
  amount: Cents | null;
  waiverPeriod: WaiverPeriod | null;
  issueDate: string | null;
  disabled: boolean;
}

/** The switch as shown: off inside the waiver period whatever was asked. */
function ApplySwitch({ value, onChange, waived, disabled }: { value?: boolean; onChange?: (v: boolean) => void; waived: boolean; disabled: boolean }) {
  return <Switch aria-label="Apply" checked={Boolean(value) && !waived} disabled={disabled || waived} onChange={(v) => onChange?.(v)} />;
}

export function RegistrationFee({ amount, waiverPeriod, issueDate, disabled }: RegistrationFeeProps) {
  const waived = isInWaiverPeriod(issueDate, waiverPeriod);
  const period = waiverPeriod?.startDate && waiverPeriod.endDate ? `${formatCalendarDay(waiverPeriod.startDate, DISPLAY_DATE_FORMAT)} - ${formatCalendarDay(waiverPeriod.endDate, DISPLAY_DATE_FORMAT)}` : null;
  return (
    <Card title="Registration Fee" size="small">
      <Space align="center" wrap size="large">
        <Space>
          <Typography.Text>Apply</Typography.Text>
          <Form.Item name="isRegistrationFee" noStyle>
            <ApplySwitch waived={waived} disabled={disabled} />
          </Form.Item>
        </Space>
        <Space>
          <Typography.Text>Amount</Typography.Text>
          <Input readOnly value={amount === null ? "" : formatMoney(amount)} placeholder="S$00.00" style={{ width: 140 }} aria-label="Registration fee amount" />
        </Space>
        {waived && <Tag color="green">Waived</Tag>}
        {period && <Typography.Text type="secondary">Waiver period: {period}</Typography.Text>}
      </Space>
    </Card>
  );
}
