/** The end of a suspension or withdrawal form: reason, remarks, Cancel back to the list and Save. */
import { Button, Form, Input, Space } from "antd";
import { useNavigate } from "react-router";

export function ReasonAndSave({ listPath, saving, reasonRequired }: { listPath: string; saving: boolean; reasonRequired?: string }) {
  const navigate = useNavigate();
  return (
    <>
      <Form.Item label="Reason" name="reason" rules={reasonRequired ? [{ required: true, message: reasonRequired }] : undefined}>
        <Input maxLength={2000} />
      </Form.Item>
      <Form.Item label="Remarks" name="remarks">
        <Input.TextArea rows={3} maxLength={5000} />
      </Form.Item>
      <Space>
        <Button onClick={() => navigate(listPath)}>Cancel</Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          Save
        </Button>
      </Space>
    </>
  );
}
