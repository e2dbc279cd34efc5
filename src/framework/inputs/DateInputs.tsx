/** antd's date and time pickers, in a module of their own so that only forms and date filters load them. */
import { DatePicker, TimePicker } from "antd";
import type { ComponentProps } from "react";

export function DateInput(props: ComponentProps<typeof DatePicker>) {
  return <DatePicker {...props} />;
}

export function DateRangeInput(props: ComponentProps<typeof DatePicker.RangePicker>) {
  return <DatePicker.RangePicker {...props} />;
}

export function TimeInput(props: ComponentProps<typeof TimePicker>) {
  return <TimePicker {...props} />;
}
