/** The generated create or edit form in a dialog over the list (a resource's `dialogs`). */
import { Modal } from "antd";
import { useParams } from "react-router";
import { useInvalidate } from "@refinedev/core";
import { useEffect, useState } from "react";
import type { Resource } from "../types.ts";
import { ResourceForm } from "./FormPage.tsx";

export interface FormDialogProps {
  resource: Resource;
  /** What is open: a new record, or the record with this id; null when closed. */
  open: { action: "create" } | { action: "edit"; id: string } | null;
  onClose: () => void;
}

/** Refine's words for leaving a form page with unsaved changes; the dialog asks the same. */
export const LEAVE_UNSAVED = "Are you sure you want to leave? You have unsaved changes.";

export function FormDialog({ resource, open, onClose }: FormDialogProps) {
  const params = useParams();
  const invalidate = useInvalidate();
  // Closing a half-filled dialog (×, Esc, the mask, Cancel) asks first, as leaving a form page does.
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const openKey = open ? (open.action === "edit" ? open.id : "create") : null;
  useEffect(() => {
    setDirty(false);
    setAsking(false);
  }, [openKey]);
  const close = () => {
    setDirty(false);
    setAsking(false);
    onClose();
  };
  const requestClose = () => (dirty ? setAsking(true) : close());
  // The form unmounts as the dialog closes: the list under it is refreshed from here, not left to the
  // unmounted form's mutation.
  const saved = () => {
    void invalidate({ resource: resource.table, invalidates: ["list", "many", "detail"] });
    close();
  };
  const title = open ? `${open.action === "create" ? "Create" : "Edit"} ${resource.singular}` : "";
  return (
    <>
      <Modal title={title} open={open !== null} onCancel={requestClose} footer={null} destroyOnHidden width={640}>
        {open && (
          <ResourceForm
            key={openKey}
            resource={resource}
            action={open.action}
            id={open.action === "edit" ? open.id : undefined}
            params={params}
            onSaved={saved}
            onCancel={requestClose}
            onChange={() => setDirty(true)}
            guardUnsaved={false}
          />
        )}
      </Modal>
      <Modal open={asking} title="Unsaved changes" okText="Yes" cancelText="No" onOk={close} onCancel={() => setAsking(false)} width={420}>
        {LEAVE_UNSAVED}
      </Modal>
    </>
  );
}
