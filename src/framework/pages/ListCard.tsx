/**
 * antd's Card as a list draws it (bordered, a title, buttons on the right, the body): the same elements,
 * classes and styles (antd's own card style hook), without Card's tabs and loading skeleton, which Card
 * imports for every page that uses it (~12 kB compressed the first list page does not need).
 */
import { useContext, type ReactNode } from "react";
import { ConfigProvider } from "antd";
import useSize from "antd/es/config-provider/hooks/useSize.js";
import useCardStyle from "antd/es/card/style/index.js";

export function ListCard({ title, extra, children }: { title?: ReactNode; extra?: ReactNode; children: ReactNode }) {
  const prefixCls = useContext(ConfigProvider.ConfigContext).getPrefixCls("card");
  const [wrapCSSVar, hashId, cssVarCls] = useCardStyle(prefixCls);
  const size = useSize(undefined);
  const classes = [prefixCls, `${prefixCls}-bordered`, size && `${prefixCls}-${size}`, hashId, cssVarCls].filter(Boolean).join(" ");
  return wrapCSSVar(
    <div className={classes}>
      {(title || extra) && (
        <div className={`${prefixCls}-head`}>
          <div className={`${prefixCls}-head-wrapper`}>
            {title && <div className={`${prefixCls}-head-title`}>{title}</div>}
            {extra && <div className={`${prefixCls}-extra`}>{extra}</div>}
          </div>
        </div>
      )}
      <div className={`${prefixCls}-body`}>{children}</div>
    </div>,
  );
}
