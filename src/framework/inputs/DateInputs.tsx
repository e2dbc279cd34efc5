/**
 * antd's date and time pickers, in a module of their own so that only forms and date filters load them.
 * Every day input of the app is one of these (issue 37): it shows DD/MM/YYYY, also accepts a typed
 * D/M/YYYY or YYYY-MM-DD, and Enter in it confirms the day without submitting the form around it.
 */
import { DatePicker, TimePicker } from "antd";
import type { ComponentProps, KeyboardEvent } from "react";
import { DATE_FORMAT, DISPLAY_DATE_FORMAT } from "../../domain/dates.ts";

/** The first format is the one shown; the others are what staff may type. */
export const DAY_INPUT_FORMATS = [DISPLAY_DATE_FORMAT, "D/M/YYYY", DATE_FORMAT];

/** Enter picks the typed day (the picker's own handling runs first) but never submits the surrounding form. */
function keepEnterInside<E extends KeyboardEvent<HTMLElement>>(onKeyDown?: (e: E, preventDefault: () => void) => void) {
  return (e: E, preventDefault: () => void) => {
    onKeyDown?.(e, preventDefault);
    if (e.key === "Enter") e.preventDefault();
  };
}

type DateProps = ComponentProps<typeof DatePicker>;
type RangeProps = ComponentProps<typeof DatePicker.RangePicker>;

export function DateInput({ format, onKeyDown, ...props }: DateProps) {
  return <DatePicker format={format ?? (props.showTime ? undefined : DAY_INPUT_FORMATS)} onKeyDown={keepEnterInside(onKeyDown)} {...props} />;
}

export function DateRangeInput({ format, onKeyDown, ...props }: RangeProps) {
  return <DatePicker.RangePicker format={format ?? (props.showTime ? undefined : DAY_INPUT_FORMATS)} onKeyDown={keepEnterInside(onKeyDown)} {...props} />;
}

export function TimeInput({ onKeyDown, ...props }: ComponentProps<typeof TimePicker>) {
  return <TimePicker onKeyDown={keepEnterInside(onKeyDown)} {...props} />;
}
