/**
 * Typography.Text and Typography.Title as the shell and the lists use them (no ellipsis, copy or editing):
 * antd's inner Typography element, which renders the same element, classes and styles. antd's Text and Title
 * go through its Base, which brings the editing text area, clipboard and tooltip along (~9 kB compressed).
 */
import type { ComponentType, HTMLAttributes } from "react";
import Typography from "antd/es/typography/Typography.js";

type Props = HTMLAttributes<HTMLElement> & { "data-testid"?: string };

const Element = Typography as unknown as ComponentType<Props & { component: string }>;

export function Text(props: Props) {
  return <Element component="span" {...props} />;
}

export function Title({ level, ...props }: Props & { level: 1 | 2 | 3 | 4 | 5 }) {
  return <Element component={`h${level}`} {...props} />;
}
