/** antd's number input, in a module of its own so that only forms and number filters load it. */
import { InputNumber } from "antd";
import type { ComponentProps } from "react";

export function NumberInput(props: ComponentProps<typeof InputNumber>) {
  return <InputNumber {...props} />;
}
