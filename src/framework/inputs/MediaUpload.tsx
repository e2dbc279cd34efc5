/**
 * Image or file upload to our media storage. Images: gif/jpeg/png; over 5,000,000 bytes refused with
 * 'The image size exceeds the allowable limit.'; a failed upload warns 'Upload failed!'.
 * The field's value is the public URL of the stored object.
 */
import { Button, Image, Space, Upload, message as antdMessage } from "antd";
import { UploadOutlined, DeleteOutlined } from "@ant-design/icons";
import { useState } from "react";
import { IMAGE_TYPES, MESSAGES, imageFile, isAcceptedImage } from "../../domain/validators.ts";
import { downloadMediaUrl, keyPathOf, publicMediaUrl, uploadFile } from "../media.ts";

export interface MediaUploadProps {
  kind: "image" | "file";
  folder: string;
  value?: string | null;
  onChange?: (url: string | null) => void;
  disabled?: boolean;
  id?: string;
}

export function MediaUpload({ kind, folder, value, onChange, disabled, id }: MediaUploadProps) {
  const [busy, setBusy] = useState(false);
  // Hook-based toasts: antd's static message does not render under React 19.
  const [message, messageHolder] = antdMessage.useMessage();
  return (
    <Space direction="vertical">
      {messageHolder}
      {value && (kind === "image" ? <Image src={value} width={96} alt="" /> : <a href={downloadMediaUrl(keyPathOf(value))}>{keyPathOf(value).split("/").pop()}</a>)}
      <Space>
        <Upload
          id={id}
          accept={kind === "image" ? IMAGE_TYPES.join(",") : undefined}
          showUploadList={false}
          disabled={disabled || busy}
          beforeUpload={(file) => {
            if (kind === "image") {
              if (!isAcceptedImage(file)) {
                void message.warning(MESSAGES.uploadFailed);
                return Upload.LIST_IGNORE;
              }
              const tooLarge = imageFile(file);
              if (tooLarge) {
                void message.warning(tooLarge);
                return Upload.LIST_IGNORE;
              }
            }
            return true;
          }}
          customRequest={async ({ file, onSuccess, onError }) => {
            setBusy(true);
            try {
              const keyPath = await uploadFile(file as File, folder);
              onChange?.(publicMediaUrl(keyPath));
              onSuccess?.(keyPath);
            } catch (error) {
              void message.error(MESSAGES.uploadFailed);
              onError?.(error as Error);
            } finally {
              setBusy(false);
            }
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy} disabled={disabled}>
            {kind === "image" ? "Upload image" : "Upload file"}
          </Button>
        </Upload>
        {value && !disabled && <Button aria-label="Remove" icon={<DeleteOutlined />} onClick={() => onChange?.(null)} />}
      </Space>
    </Space>
  );
}
