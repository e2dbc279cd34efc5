/** The generated create or edit form in a dialog over the list (a resource's `dialogs`). */
import { Modal } from "antd";
import { useParams } from "react-router";
import { useInvalidate } from "@refinedev/core";
import type { Resource } from "../types.ts";
import { ResourceForm } from "./FormPage.tsx";

export interface FormDialogProps {
  resource: Resource;
  /** What is open: a new record, or the record with this id; null when closed. */
  open: { action: "create" } | { action: "edit"; id: string } | null;
  onClose: () => void;
}

export function FormDialog({ resource, open, onClose }: FormDialogProps) {
  const params = useParams();
  const invalidate = useInvalidate();
  // The form unmounts as the dialog closes: the list under it is refreshed from here, not left to the
  // unmounted form's mutation.
  const saved = () => {
    void invalidate({ resource: resource.table, invalidates: ["list", "many", "detail"] });
    onClose();
  };
  const title = open ? `${open.action === "create" ? "Create" : "Edit"} ${resource.singular}` : "";
  return (
    <Modal title={title} open={open !== null} onCancel={onClose} footer={null} destroyOnHidden width={640}>
      {open && (
        <ResourceForm
          key={open.action === "edit" ? open.id : "create"}
          resource={resource}
          action={open.action}
          id={open.action === "edit" ? open.id : undefined}
          params={params}
          onSaved={saved}
          onCancel={onClose}
          guardUnsaved={false}
        />
      )}
    </Modal>
  );
}
