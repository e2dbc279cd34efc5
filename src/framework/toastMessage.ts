/** antd's message, on its own for toast.ts to load on demand (the package's entry, as everything else imports antd). */
export { message } from "antd";
