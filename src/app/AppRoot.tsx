/**
 * The root element antd's App draws (the `ant-app` class and its style: the app's font and colours), without
 * App's message, notification and modal hook holders: nothing here calls App.useApp() (toasts go through the
 * static message API, src/app/errors.ts), and the holders bring Modal, its skeleton and notification into
 * every page (~15 kB compressed).
 */
import { useContext, type ReactNode } from "react";
import { ConfigProvider } from "antd";
import useAppStyle from "antd/es/app/style/index.js";

export function AppRoot({ children }: { children: ReactNode }) {
  const prefixCls = useContext(ConfigProvider.ConfigContext).getPrefixCls("app");
  const [wrapCSSVar, hashId, cssVarCls] = useAppStyle(prefixCls);
  return wrapCSSVar(<div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(" ")}>{children}</div>);
}
