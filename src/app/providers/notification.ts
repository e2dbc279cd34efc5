/** Notification provider on antd's message (max 1, 3 s); errors already toasted by the GraphQL layer are not repeated. */
import type { NotificationProvider } from "@refinedev/core";
import { TOAST_SECONDS, toast } from "../../framework/toast.ts";
import { errorJustReported } from "../errors.ts";

export const notificationProvider: NotificationProvider = {
  open: ({ key, message: title, description, type }) => {
    if (type === "error") {
      if (errorJustReported()) return;
      void toast.error({ key, content: description || title, duration: TOAST_SECONDS });
    } else if (type === "success") {
      void toast.success({ key, content: description || title, duration: TOAST_SECONDS });
    } else {
      void toast.loading({ key, content: description || title, duration: TOAST_SECONDS });
    }
  },
  close: (key) => toast.destroy(key),
};
