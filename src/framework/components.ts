/**
 * Building blocks for hand-written pages that replace a generated one: the same list, row actions,
 * inputs and renderers the generated pages use (a separate entry so the shell's eager import stays small).
 */
export { ListView, recordCounter, permanentFilters, PAGE_SIZE } from "./pages/ListView.tsx";
export { PagedTable } from "./pages/PagedTable.tsx";
export { RowActions, DeleteRecordButton } from "./pages/RowActions.tsx";
export { CsvExportButton, fetchAllRows } from "./pages/CsvExportButton.tsx";
export { fieldRules, backPath, ResourceForm, createDefaults } from "./pages/FormPage.tsx";
export { FormDialog } from "./pages/FormDialog.tsx";
export { MoneyInput } from "./inputs/MoneyInput.tsx";
export { RelationSelect } from "./inputs/RelationSelect.tsx";
export { MediaUpload } from "./inputs/MediaUpload.tsx";
export { FilesUpload, FileLinks, storedFiles, type StoredFile } from "./inputs/FilesUpload.tsx";
export { RichTextInput } from "./inputs/RichTextInput.tsx";
export { PhoneInput, formatPhone, type Phone } from "./inputs/PhoneInput.tsx";
export { KINDS, renderValue, decodeRecord, encodeValues } from "./kinds.tsx";
export { KIND_INPUTS } from "./kindInputs.tsx";
export { useRelationLabels } from "./useRelationLabels.ts";
export { enumLabel } from "./enumLabel.ts";
export { TextWithLinks, splitLongLinks } from "./text.tsx";
export { uploadFile, publicMediaUrl, downloadMediaUrl } from "./media.ts";
