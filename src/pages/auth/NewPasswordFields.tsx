/**
 * The new-password block of the password pages (forgot password, change password): "New password"
 * (required, at least PASSWORD_MIN_LENGTH characters) and "Confirm new password" (must match). Goes
 * inside an antd Form; the fields are named newPassword and confirm.
 */
import { Form, Input } from "antd";
import { t } from "../../app/i18n/index.ts";
import { PASSWORD_MIN_LENGTH } from "../../domain/passwords.ts";

export function NewPasswordFields() {
  return (
    <>
      <Form.Item
        label="New password"
        name="newPassword"
        rules={[{ required: true, message: "Please input your new password!" }, { min: PASSWORD_MIN_LENGTH, message: t("At_least_{N}_characters", { N: PASSWORD_MIN_LENGTH }) }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="Confirm new password"
        name="confirm"
        dependencies={["newPassword"]}
        rules={[
          { required: true, message: "Please confirm your new password!" },
          ({ getFieldValue }) => ({
            validator: (_, v) => (!v || v === getFieldValue("newPassword") ? Promise.resolve() : Promise.reject(new Error("The two passwords do not match!"))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
