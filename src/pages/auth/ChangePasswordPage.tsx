/** /change-password/{email} (spec part 1 §2): public; the account named in the path changes its password. */
import { Alert, Button, Form, Input } from "antd";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { changePassword } from "../../app/auth.ts";
import { AuthCard } from "./AuthCard.tsx";
import { NewPasswordFields } from "./NewPasswordFields.tsx";
import { useIdentityCall } from "./useIdentityCall.ts";

export default function ChangePasswordPage() {
  const { email = "" } = useParams();
  const [done, setDone] = useState(false);
  const { busy, error, run } = useIdentityCall("Password change failed. Please try again.");

  const onFinish = async ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) => {
    if (await run(() => changePassword(email, oldPassword, newPassword))) setDone(true);
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
          <NewPasswordFields />
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
