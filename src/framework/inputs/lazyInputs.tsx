/**
 * The form inputs (number, money, relation select, date and time pickers, uploads, the rich-text
 * editor) and the rich-text viewer (with DOMPurify) as lazy components: a list page draws without their code,
 * which loads when a form, a filter that needs it or a rich-text cell appears (issue 20).
 * `prefetchFormInputs` starts those downloads early, e.g. when the pointer reaches a Create button.
 */
import { Suspense, lazy, type ComponentProps, type ComponentType } from "react";
import { Input } from "antd";

const loaders = {
  pickers: () => import("./DateInputs.tsx"),
  number: () => import("./NumberInput.tsx"),
  media: () => import("./MediaUpload.tsx"),
  files: () => import("./FilesUpload.tsx"),
  richText: () => import("./RichTextInput.tsx"),
  money: () => import("./MoneyInput.tsx"),
  relation: () => import("./RelationSelect.tsx"),
};

/** Starts downloading every lazy input's code (idempotent: the browser fetches each chunk once). */
export function prefetchFormInputs(): void {
  for (const load of Object.values(loaders)) void load().catch(() => undefined);
}

/** A lazy component that keeps the props Form.Item gives it (value, onChange, id), with a quiet placeholder meanwhile. */
function lazyInput<C extends ComponentType<any>>(load: () => Promise<{ default: C }>): ComponentType<ComponentProps<C>> {
  const Inner = lazy(load);
  return function LazyInput(props: ComponentProps<C>) {
    return (
      <Suspense fallback={<Input disabled aria-busy="true" />}>
        <Inner {...props} />
      </Suspense>
    );
  };
}

export const NumberInput = lazyInput(() => loaders.number().then((m) => ({ default: m.NumberInput })));
export const DateInput = lazyInput(() => loaders.pickers().then((m) => ({ default: m.DateInput })));
export const DateRangeInput = lazyInput(() => loaders.pickers().then((m) => ({ default: m.DateRangeInput })));
export const TimeInput = lazyInput(() => loaders.pickers().then((m) => ({ default: m.TimeInput })));
export const LazyMediaUpload = lazyInput(() => loaders.media().then((m) => ({ default: m.MediaUpload })));
export const LazyFilesUpload = lazyInput(() => loaders.files().then((m) => ({ default: m.FilesUpload })));
export const LazyRichTextInput = lazyInput(() => loaders.richText().then((m) => ({ default: m.RichTextInput })));
export const LazyMoneyInput = lazyInput(() => loaders.money().then((m) => ({ default: m.MoneyInput })));
export const LazyRelationSelect = lazyInput(() => loaders.relation().then((m) => ({ default: m.RelationSelect })));

const RichTextViewer = lazy(() => import("../RichTextView.tsx").then((m) => ({ default: m.RichTextView })));
/** Stored HTML shown through the sanitiser, whose code loads with the first rich-text value on screen. */
export function LazyRichTextView(props: ComponentProps<typeof RichTextViewer>) {
  return (
    <Suspense fallback={null}>
      <RichTextViewer {...props} />
    </Suspense>
  );
}
