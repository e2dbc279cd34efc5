/**
 * A list filter's select (enum and yes/no filters): until the user reaches it, antd's closed single Select with
 * allowClear as antd draws it (the same elements and classes, antd's own select style hook, the combobox input
 * the label names), without rc-select, rc-virtual-list and antd's Select, which a list page would otherwise
 * download for filters most visits never open (~18 kB compressed, issue 20). Pointing at it or focusing it starts
 * loading the real Select; a click (mouse down, as antd opens), Enter, Space or an arrow key draws the real one in
 * its place, opened and focused, with the same value, onChange, options and style, so picking takes one click as
 * before. The clear icon clears without loading anything.
 */
import { useContext, useEffect, useState, type ComponentType, type CSSProperties, type KeyboardEvent, type MouseEvent } from "react";
import { ConfigProvider } from "antd";
import type { SelectProps } from "antd";
import { CloseCircleFilled, DownOutlined } from "@ant-design/icons";
import useCSSVarCls from "antd/es/config-provider/hooks/useCSSVarCls.js";
import useSize from "antd/es/config-provider/hooks/useSize.js";
import { FormItemInputContext } from "antd/es/form/context.js";
import useVariants from "antd/es/form/hooks/useVariants.js";
import useSelectStyle from "antd/es/select/style/index.js";

type Option = { value: string | number | boolean; label: string };

export interface FilterSelectProps {
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  options: Option[];
  placeholder?: string;
  style?: CSSProperties;
}

type RealSelect = ComponentType<SelectProps<any, any>>;
let loaded: RealSelect | undefined;
let loading: Promise<RealSelect> | undefined;

/** Starts (once) downloading antd's Select; resolves to it. */
export function loadRealSelect(): Promise<RealSelect> {
  loading ??= import("antd/es/select/index.js").then((m) => (loaded = m.default as unknown as RealSelect));
  return loading;
}

const OPENING_KEYS = new Set(["Enter", " ", "ArrowDown", "ArrowUp"]);
const UNSELECTABLE = { userSelect: "none", WebkitUserSelect: "none" } as const;

export function FilterSelect(props: FilterSelectProps) {
  const { id, value, onChange, options, placeholder, style } = props;
  const [Real, setReal] = useState<RealSelect | undefined>(undefined);
  const [wanted, setWanted] = useState(false);
  const [focused, setFocused] = useState(false);

  const { getPrefixCls, direction } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls("select");
  const rootCls = useCSSVarCls(prefixCls);
  const [wrapCSSVar, hashId, cssVarCls] = useSelectStyle(prefixCls, rootCls);
  const [variant, enableVariantCls] = useVariants("select", undefined, undefined);
  const { isFormItemInput } = useContext(FormItemInputContext);
  const size = useSize(undefined);

  useEffect(() => {
    if (!wanted || Real) return;
    let live = true;
    void loadRealSelect().then((S) => live && setReal(() => S));
    return () => {
      live = false;
    };
  }, [wanted, Real]);

  if (wanted && (Real ?? loaded)) {
    const S = (Real ?? loaded)!;
    return <S id={id} value={value as never} onChange={(v: unknown) => onChange?.(v)} options={options} placeholder={placeholder} style={style} allowClear defaultOpen autoFocus />;
  }

  const prefetch = () => void loadRealSelect().catch(() => undefined);
  const open = () => {
    prefetch();
    setWanted(true);
  };
  const chosen = value === undefined || value === null ? undefined : options.find((o) => o.value === value);
  const shown = chosen?.label ?? (value === undefined || value === null ? undefined : String(value));
  const classes = [
    prefixCls,
    size === "large" && `${prefixCls}-lg`,
    size === "small" && `${prefixCls}-sm`,
    direction === "rtl" && `${prefixCls}-rtl`,
    enableVariantCls && `${prefixCls}-${variant}`,
    isFormItemInput && `${prefixCls}-in-form-item`,
    cssVarCls,
    rootCls,
    hashId,
    focused && `${prefixCls}-focused`,
    `${prefixCls}-single`,
    `${prefixCls}-allow-clear`,
    `${prefixCls}-show-arrow`,
  ]
    .filter(Boolean)
    .join(" ");

  return wrapCSSVar(
    <div
      className={classes}
      style={style}
      onPointerEnter={prefetch}
      onMouseDown={(e: MouseEvent) => {
        if (e.button !== 0) return;
        e.preventDefault(); // the real select takes the focus
        open();
      }}
    >
      <div className={`${prefixCls}-selector`}>
        <span className={`${prefixCls}-selection-wrap`}>
          <span className={`${prefixCls}-selection-search`}>
            <input
              type="search"
              id={id}
              autoComplete="off"
              className={`${prefixCls}-selection-search-input`}
              role="combobox"
              aria-expanded="false"
              aria-haspopup="listbox"
              aria-owns={id ? `${id}_list` : undefined}
              aria-autocomplete="list"
              aria-controls={id ? `${id}_list` : undefined}
              readOnly
              unselectable="on"
              style={{ opacity: 0 }}
              value=""
              onFocus={() => {
                setFocused(true);
                prefetch();
              }}
              onBlur={() => setFocused(false)}
              onKeyDown={(e: KeyboardEvent) => {
                if (!OPENING_KEYS.has(e.key)) return;
                e.preventDefault();
                open();
              }}
            />
          </span>
          {shown === undefined ? (
            <span className={`${prefixCls}-selection-placeholder`}>{placeholder}</span>
          ) : (
            <span className={`${prefixCls}-selection-item`} title={shown}>
              {shown}
            </span>
          )}
        </span>
      </div>
      <span className={`${prefixCls}-arrow`} style={UNSELECTABLE} unselectable="on" aria-hidden="true">
        <DownOutlined className={`${prefixCls}-suffix`} />
      </span>
      {shown !== undefined && (
        <span
          className={`${prefixCls}-clear`}
          style={UNSELECTABLE}
          unselectable="on"
          aria-hidden="true"
          onMouseDown={(e: MouseEvent) => {
            e.preventDefault();
            e.stopPropagation();
            onChange?.(undefined);
          }}
        >
          <CloseCircleFilled />
        </span>
      )}
    </div>,
  );
}
