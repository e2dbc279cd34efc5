/** Stored files of a `files` field: the value as a list, and its links (no upload code: lists and show pages use them). */
import { Space } from "antd";
import { PaperClipOutlined } from "@ant-design/icons";
import { downloadMediaUrl, keyPathOf } from "./media.ts";

export interface StoredFile {
  name: string;
  url: string;
}

/** A jsonb value as a list of stored files (unknown entries dropped; a bare URL string is named by its key). */
export function storedFiles(value: unknown): StoredFile[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v): StoredFile[] => {
    if (typeof v === "string" && v) return [{ name: keyPathOf(v).split("/").pop() ?? v, url: v }];
    if (v && typeof v === "object" && typeof (v as StoredFile).url === "string") {
      const url = (v as StoredFile).url;
      return [{ name: String((v as StoredFile).name ?? keyPathOf(url).split("/").pop()), url }];
    }
    return [];
  });
}

export function FileLinks({ files }: { files: readonly StoredFile[] }) {
  return (
    <Space direction="vertical" size={0}>
      {files.map((f) => (
        <a key={f.url} href={downloadMediaUrl(keyPathOf(f.url))}>
          <PaperClipOutlined /> {f.name}
        </a>
      ))}
    </Space>
  );
}

