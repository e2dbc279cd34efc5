/** The progress dialog of a CSV export: its own chunk, loaded on the first click of Export CSV (not with every list). */
import { Modal, Progress } from "antd";

export default function ExportProgress({ percent }: { percent: number | null }) {
  return (
    <Modal open={percent !== null} title="Exporting…" footer={null} closable={false}>
      <Progress percent={percent ?? 0} />
    </Modal>
  );
}
