/** /change-password/{email} (spec part 1 §2): public; the account named in the path changes its password. */
import { Alert, Button, Form, Input } from "antd";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { rejectionMessage } from "../../app/api.ts";
import { changePassword } from "../../app/auth.ts";
import { t } from "../../app/i18n/index.ts";
import { AuthCard } from "./AuthCard.tsx";
import { PASSWORD_MIN_LENGTH } from "../../domain/passwords.ts";

export default function ChangePasswordPage() {
  const { email = "" } = useParams();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const onFinish = async ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) => {
    setBusy(true);
    setError(undefined);
    try {
      await changePassword(email, oldPassword, newPassword);
      setDone(true);
    } catch (err) {
      setError(rejectionMessage(err, "Password change failed. Please try again."));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Change password">
      <p data-testid="change-password-account">{email}</p>
      {error && <Alert data-testid="change-password-error" type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      {done ? (
        <Alert type="success" showIcon message="Your password has been changed." />
      ) : (
        <Form layout="vertical" onFinish={onFinish} disabled={busy}>
          <Form.Item label="Current password" name="oldPassword" rules={[{ required: true, message: "Please input your current password!" }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
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
          <Button type="primary" htmlType="submit" block loading={busy}>
            Change password
          </Button>
        </Form>
      )}
      <div style={{ marginTop: 16, textAlign: "right" }}>
        <Link to="/login">Back to sign in</Link>
      </div>
    </AuthCard>
  );
}
