/** A phone number as { code, number }: country code and digits. */
import { Input, Space } from "antd";

import type { Phone } from "./phone.ts";

export { formatPhone, type Phone } from "./phone.ts";

export function PhoneInput({ value, onChange, disabled }: { value?: Phone | null; onChange?: (v: Phone) => void; disabled?: boolean }) {
  const v = value ?? { code: "+65", number: "" };
  return (
    <Space.Compact style={{ width: "100%" }}>
      <Input aria-label="Country code" style={{ width: 90 }} value={v.code} disabled={disabled} onChange={(e) => onChange?.({ ...v, code: e.target.value })} />
      <Input aria-label="Phone number" value={v.number} disabled={disabled} onChange={(e) => onChange?.({ ...v, number: e.target.value.replace(/[^\d]/g, "") })} />
    </Space.Compact>
  );
}
