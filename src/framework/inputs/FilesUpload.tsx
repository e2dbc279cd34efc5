/**
 * Several files uploaded to our media storage (presigned PUT, as the single-file input); the value is
 * the list of stored files `{ name, url }` in upload order. Each file can be removed before saving;
 * a refused upload warns 'Upload failed!' and leaves the list as it was.
 */
import { Button, List, Space, Upload, message as antdMessage } from "antd";
import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from "@ant-design/icons";
import { storedFiles, type StoredFile } from "../storedFiles.tsx";
import { useRef, useState } from "react";
import { MESSAGES } from "../../domain/validators.ts";
import { downloadMediaUrl, keyPathOf, publicMediaUrl, uploadFile } from "../media.ts";

export { storedFiles, FileLinks, type StoredFile } from "../storedFiles.tsx";

export interface FilesUploadProps {
  folder: string;
  value?: unknown;
  onChange?: (files: StoredFile[]) => void;
  disabled?: boolean;
  id?: string;
}

export function FilesUpload({ folder, value, onChange, disabled, id }: FilesUploadProps) {
  const [busy, setBusy] = useState(0);
  const [message, messageHolder] = antdMessage.useMessage();
  const files = storedFiles(value);
  // Several files chosen at once finish one by one: each appends to the latest list, not a stale copy.
  const latest = useRef(files);
  latest.current = files;
  const set = (next: StoredFile[]) => {
    latest.current = next;
    onChange?.(next);
  };
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      {messageHolder}
      {files.length > 0 && (
        <List
          size="small"
          bordered
          dataSource={files}
          renderItem={(f, i) => (
            <List.Item
              actions={
                disabled
                  ? []
                  : [<Button key="remove" size="small" aria-label={`Remove ${f.name}`} icon={<DeleteOutlined />} onClick={() => set(latest.current.filter((_, j) => j !== i))} />]
              }
            >
              <a href={downloadMediaUrl(keyPathOf(f.url))}>
                <PaperClipOutlined /> {f.name}
              </a>
            </List.Item>
          )}
        />
      )}
      <Upload
        id={id}
        multiple
        showUploadList={false}
        disabled={disabled}
        customRequest={async ({ file, onSuccess, onError }) => {
          setBusy((n) => n + 1);
          try {
            const f = file as File;
            const keyPath = await uploadFile(f, folder);
            set([...latest.current, { name: f.name, url: publicMediaUrl(keyPath) }]);
            onSuccess?.(keyPath);
          } catch (error) {
            void message.error(MESSAGES.uploadFailed);
            onError?.(error as Error);
          } finally {
            setBusy((n) => n - 1);
          }
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy > 0} disabled={disabled}>
          Upload files
        </Button>
      </Upload>
    </Space>
  );
}
