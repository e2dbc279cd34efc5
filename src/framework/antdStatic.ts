/**
 * antd 5's static methods (message, notification, Modal.confirm) render through ReactDOM.render, which
 * React 19 removed; antd's documented hook for React 19 gives them a createRoot-based renderer.
 */
import { unstableSetRender } from "antd";
import { createRoot, type Root } from "react-dom/client";

type Container = (Element | DocumentFragment) & { __backofficeRoot?: Root };

unstableSetRender((node, container) => {
  const c = container as Container;
  c.__backofficeRoot ??= createRoot(c);
  const root = c.__backofficeRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete c.__backofficeRoot;
  };
});
