/** The S$ currency input: prefix, minus sign when negative, thousands grouping, two decimals; a third decimal typed is dropped as shown. */
import { Input, type InputProps } from "antd";
import { useEffect, useRef, useState } from "react";
import { formatMoney, formatMoneyInputText, parseMoneyInput, type Cents } from "../../domain/money.ts";

export interface MoneyInputProps extends Omit<InputProps, "value" | "onChange"> {
  /** Integer cents. */
  value?: Cents | null;
  onChange?: (cents: Cents | null) => void;
}

export function MoneyInput({ value, onChange, ...rest }: MoneyInputProps) {
  const [text, setText] = useState(() => (value === null || value === undefined ? "" : formatMoney(value)));
  const emitted = useRef<Cents | null | undefined>(value);
  useEffect(() => {
    if (value !== emitted.current) {
      emitted.current = value;
      setText(value === null || value === undefined ? "" : formatMoney(value));
    }
  }, [value]);
  return (
    <Input
      inputMode="decimal"
      {...rest}
      value={text}
      onChange={(e) => {
        const shown = formatMoneyInputText(e.target.value);
        setText(shown);
        const cents = parseMoneyInput(shown);
        emitted.current = cents;
        onChange?.(cents);
      }}
      onBlur={(e) => {
        if (emitted.current !== null && emitted.current !== undefined) setText(formatMoney(emitted.current));
        rest.onBlur?.(e);
      }}
    />
  );
}
