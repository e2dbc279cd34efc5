/**
 * The app's toasts (the shell's and the pages'), through antd's message, whose code (with its notification list,
 * ~4 kB compressed) loads with the first toast: a list page shows none until something fails or is saved
 * (issue 20). Every toast keeps the error catalogue's rule (spec part 1 §8): 3 seconds, at most one at a time.
 * Pages that hold their own message instance (`message.useMessage()`) keep using antd's directly. React 19 draws
 * them through antdStatic.ts, imported here as everywhere else statically: a few lines the app's start runs anyway,
 * and a module imported both lazily and statically would keep the toast's own chunk from splitting off.
 */
import type { MessageArgsProps as ArgsProps, message } from "antd";
import "./antdStatic.ts";

export const TOAST_SECONDS = 3;

type Message = typeof message;

/** antd's message with the catalogue's settings. */
function configureToasts<M extends Pick<Message, "config">>(message: M): M {
  message.config({ maxCount: 1, duration: TOAST_SECONDS });
  return message;
}

let loading: Promise<Message> | undefined;
const loaded = () =>
  (loading ??= import("./toastMessage.ts").then(({ message }) => configureToasts(message)));

type Content = ArgsProps | string;

/** Opens a toast once antd's message has loaded (at once after the first); the promise settles when it shows. */
const show = (type: "error" | "success" | "loading" | "info" | "warning") => (content: Content) =>
  loaded().then((message) => {
    void message[type](content as ArgsProps);
  });

export const toast = {
  error: show("error"),
  success: show("success"),
  loading: show("loading"),
  info: show("info"),
  warning: show("warning"),
  /** Closes the toast with this key (or all); toasts still loading are closed after they open. */
  destroy: (key?: ArgsProps["key"]) => void loading?.then((message) => message.destroy(key)),
};
