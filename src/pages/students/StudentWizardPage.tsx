/**
 * The account wizard (spec part 1 §2): /student-management/create-account and, for an existing or draft
 * student, /student-management/update-account-information/{id}. Three steps, each saved by its own call
 * (POST /student-profiles/init, /step-family-information, /step-student-information); a draft opens at
 * the first step it has not saved (currentStep), so leaving after step 2 and coming back continues at 3.
 */
import { Button, Card, Form, Result, Space, Spin, Steps, message as antdMessage } from "antd";
import { useOne, useInvalidate } from "@refinedev/core";
import { useState } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { api, rejectionMessage } from "../../app/api.ts";
import { STUDENT_WIZARD_STEPS, resumeStepIndex } from "../../domain/students.ts";
import { useFormEdits } from "../../framework/formEdits.ts";
import { AccountSection, FamilySection, StudentInfoSection } from "./StudentFormSections.tsx";
import {
  PROFILE_FIELDS, accountBody, accountValues, familyBody, familyValues, serverFieldErrors, studentInfoBody, studentInfoValues,
  type AccountValues, type FamilyValues, type ProfileRecord, type StudentInfoValues,
} from "./studentProfile.ts";

export default function StudentWizardPage() {
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  // update-account-information/{id}, or a create-account draft kept in ?id= so a reload resumes it
  // (read once: the wizard itself writes ?id= after its first step).
  const [id] = useState(() => params.id ?? search.get("id") ?? undefined);
  const { query } = useOne<ProfileRecord>({ resource: "users", id, meta: { fields: PROFILE_FIELDS }, queryOptions: { retry: false, enabled: Boolean(id) } });
  if (id && query.isLoading) return <Spin size="large" />;
  const record = query.data?.data;
  if (id && (!record || record.type !== "student" || record.status === "deleted")) return <Card title="Student Account">This record does not exist.</Card>;
  return <StudentWizard key={id ?? "new"} initial={record} updating={Boolean(params.id)} onCreated={(newId) => setSearch({ id: newId }, { replace: true })} />;
}

function StudentWizard({ initial, updating, onCreated }: { initial?: ProfileRecord; updating: boolean; onCreated: (id: string) => void }) {
  const [profile, setProfile] = useState<ProfileRecord | undefined>(initial);
  const [step, setStep] = useState(() => (initial && initial.status === "draft" ? resumeStepIndex(initial.currentStep) : 0));
  const [saving, setSaving] = useState(false);
  const [accountForm] = Form.useForm<AccountValues>();
  const [familyForm] = Form.useForm<FamilyValues>();
  const [infoForm] = Form.useForm<StudentInfoValues>();
  const [message, messageHolder] = antdMessage.useMessage();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const forms = [accountForm, familyForm, infoForm] as const;
  // typing in any step arms the unsaved-changes warning; a step saved disarms it
  const edits = [useFormEdits(accountForm), useFormEdits(familyForm), useFormEdits(infoForm)] as const;

  /** One step's call; the server's field errors land under their inputs, nothing moves on. */
  async function save(call: () => Promise<ProfileRecord | undefined>) {
    setSaving(true);
    try {
      const saved = await call();
      if (saved) {
        setProfile(saved);
        edits[step].saved();
      }
      return saved;
    } catch (err) {
      forms[step].setFields(serverFieldErrors(err) as never);
      void message.error(rejectionMessage(err, "The student could not be saved."));
      return undefined;
    } finally {
      setSaving(false);
    }
  }

  const saveAccount = async (values: AccountValues) => {
    const saved = await save(async () => {
      const res = await api<ProfileRecord>("POST", "/student-profiles/init", { ...(profile ? { id: profile.id } : {}), ...accountBody(values) });
      let data = res.data!;
      if (values.avatarUrl && values.avatarUrl !== data.avatarUrl) data = (await api<ProfileRecord>("PATCH", `/student-profiles/${data.id}/avatar`, { avatarUrl: values.avatarUrl })).data!;
      return data;
    });
    if (!saved) return;
    if (!profile) onCreated(saved.id);
    setStep(1);
  };
  const saveFamily = async (values: FamilyValues) => {
    const saved = await save(async () => (await api<ProfileRecord>("POST", "/student-profiles/step-family-information", { id: profile!.id, ...familyBody(values) })).data);
    if (saved) setStep(2);
  };
  const saveInfo = async (values: StudentInfoValues) => {
    const saved = await save(async () => (await api<ProfileRecord>("POST", "/student-profiles/step-student-information", { id: profile!.id, ...studentInfoBody(values) })).data);
    if (!saved) return;
    void message.success(updating ? "Student account updated." : "Student account created.");
    await invalidate({ resource: "users", invalidates: ["list", "detail"], id: saved.id });
    edits[2].saved(() => navigate(`/student-management/student/${saved.id}/view`));
  };

  const back = step > 0 && (
    <Button onClick={() => setStep(step - 1)} disabled={saving}>
      Back
    </Button>
  );
  const title = updating ? "Update Account Information" : "Create Account";
  return (
    <Card title={title}>
      {messageHolder}
      <Steps current={step} items={STUDENT_WIZARD_STEPS.map((t) => ({ title: t }))} style={{ marginBottom: 24 }} />
      {profile?.status === "draft" && step > 0 && <Result status="info" style={{ padding: 0, marginBottom: 16 }} subTitle={`Draft account ${String(profile.username)}: finish the steps to activate it.`} />}
      {step === 0 && (
        <Form form={accountForm} layout="vertical" initialValues={accountValues(profile)} onFinish={saveAccount} onValuesChange={edits[0].onValuesChange} aria-label={STUDENT_WIZARD_STEPS[0]} scrollToFirstError>
          <AccountSection form={accountForm} suggest={!profile} />
          <Button type="primary" htmlType="submit" loading={saving}>
            Next
          </Button>
        </Form>
      )}
      {step === 1 && (
        <Form form={familyForm} layout="vertical" initialValues={familyValues(profile)} onFinish={saveFamily} onValuesChange={edits[1].onValuesChange} aria-label={STUDENT_WIZARD_STEPS[1]} scrollToFirstError>
          <FamilySection form={familyForm} selfId={profile?.id} />
          <Space style={{ marginTop: 16 }}>
            {back}
            <Button type="primary" htmlType="submit" loading={saving}>
              Next
            </Button>
          </Space>
        </Form>
      )}
      {step === 2 && (
        <Form form={infoForm} layout="vertical" initialValues={studentInfoValues(profile)} onFinish={saveInfo} onValuesChange={edits[2].onValuesChange} aria-label={STUDENT_WIZARD_STEPS[2]} scrollToFirstError>
          <StudentInfoSection form={infoForm} />
          <Space style={{ marginTop: 16 }}>
            {back}
            <Button type="primary" htmlType="submit" loading={saving}>
              Finish
            </Button>
          </Space>
        </Form>
      )}
    </Card>
  );
}
