/**
 * A confirmation before a step that cannot be taken back (issue 37: issuing a PA, approving a credit note or a
 * refund, sending to finance): resolves true on OK, false on Cancel or close.
 */
import { Modal } from "antd";
// Modal.confirm renders through antd's React 19 hook, wherever this is used first
import "./antdStatic.ts";

export function confirmStep({ title, content, okText }: { title: string; content?: string; okText: string }): Promise<boolean> {
  return new Promise((resolve) => {
    Modal.confirm({ title, content, okText, cancelText: "Cancel", onOk: () => resolve(true), onCancel: () => resolve(false) });
  });
}
