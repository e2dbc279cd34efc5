/** /forgot-password (spec part 1 §2): request a code, then submit the code with a new password. */
import { Alert, Button, Form, Input, Spin } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { confirmNewPassword, requestPasswordCode } from "../../app/auth.ts";
import { AuthCard } from "./AuthCard.tsx";
import { NewPasswordFields } from "./NewPasswordFields.tsx";
import { useIdentityCall } from "./useIdentityCall.ts";
import { useRedirectIfSignedIn } from "./useRedirectIfSignedIn.ts";

export default function ForgotPasswordPage() {
  const checking = useRedirectIfSignedIn();
  const [step, setStep] = useState<"request" | "confirm" | "done">("request");
  const [username, setUsername] = useState("");
  const call = useIdentityCall("Request failed. Please try again.");
  const { busy, error } = call;

  if (checking) return <Spin size="large" style={{ display: "block", margin: "20vh auto" }} />;

  const run = async (fn: () => Promise<unknown>, next: typeof step) => {
    if (await call.run(fn)) setStep(next);
  };

  return (
    <AuthCard title="Forgot password">
      {error && <Alert data-testid="forgot-error" type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      {step === "request" && (
        <Form
          layout="vertical"
          disabled={busy}
          onFinish={({ username: u }: { username: string }) => {
            setUsername(u.trim());
            return run(() => requestPasswordCode(u.trim()), "confirm");
          }}
        >
          <p>Enter your username and we will send a verification code to your e-mail.</p>
          <Form.Item label="Username" name="username" rules={[{ required: true, message: "Please input your username!" }]}>
            <Input autoComplete="username" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            Send code
          </Button>
        </Form>
      )}
      {step === "confirm" && (
        <Form
          layout="vertical"
          disabled={busy}
          onFinish={({ code, newPassword }: { code: string; newPassword: string }) => run(() => confirmNewPassword(username, code.trim(), newPassword), "done")}
        >
          <p>A verification code was sent for {username}. Enter it with your new password.</p>
          <Form.Item label="Verification code" name="code" rules={[{ required: true, message: "Please input the code!" }]}>
            <Input autoComplete="one-time-code" />
          </Form.Item>
          <NewPasswordFields />
          <Button type="primary" htmlType="submit" block loading={busy}>
            Submit
          </Button>
        </Form>
      )}
      {step === "done" && <Alert type="success" showIcon message="Your password has been reset. You can sign in with the new password." />}
      <div style={{ marginTop: 16, textAlign: "right" }}>
        <Link to="/login">Back to sign in</Link>
      </div>
    </AuthCard>
  );
}
