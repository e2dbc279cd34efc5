/** Typography.Text and Typography.Title under short names, as the shell and the lists use them. */
import { Typography } from "antd";

export const { Text, Title } = Typography;
