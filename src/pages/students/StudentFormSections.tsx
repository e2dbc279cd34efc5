/**
 * The inputs of the student forms, one section per wizard step (account, family, student information),
 * used by the wizard and the edit page inside their own antd Form. Rules are the spec's validators.
 */
import { Button, Card, Checkbox, Col, Form, Input, Row, Select, Space, Switch, type FormInstance } from "antd";
import { DateInput } from "../../framework/inputs/DateInputs.tsx";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { MediaUpload } from "../../framework/inputs/MediaUpload.tsx";
import { PhoneInput, type Phone } from "../../framework/inputs/PhoneInput.tsx";
import { RelationSelect } from "../../framework/inputs/RelationSelect.tsx";
import { nameLike, numericOnly, username as usernameRule, type Validator } from "../../domain/validators.ts";
import { GENDER_LABELS, PARENT_RELATIONSHIPS, primaryContactProblem } from "../../domain/students.ts";
import { useUsernameSuggestion } from "../users/UserForm.tsx";
import { NEW_PARENT, type ParentValues } from "./studentProfile.ts";

const rule = (v: Validator) => ({
  validator: async (_: unknown, value: unknown) => {
    const m = v(value);
    if (m) throw new Error(m);
  },
});
const required = (label: string) => ({ required: true, whitespace: true, message: `Please input ${label}!` });
const options = (labels: Readonly<Record<string, string>>) => Object.entries(labels).map(([value, label]) => ({ value, label }));
const phoneDigits = numericOnly();
/** A phone {code, number}: the number is required (when `needed`) and digits only. */
const phoneRule = (needed: boolean) => ({
  validator: async (_: unknown, value: Phone | null | undefined) => {
    if (needed && !value?.number) throw new Error("Please input Phone!");
    const m = phoneDigits(value?.number) ?? (value?.code && !/^\+?[0-9]{1,6}$/.test(value.code) ? phoneDigits("x") : null);
    if (m) throw new Error(m);
  },
});

export function AccountSection({ form, suggest }: { form: FormInstance; suggest: boolean }) {
  const suggestion = useUsernameSuggestion(form as never, suggest);
  return (
    <Row gutter={16}>
      <Col span={24}>
        <Form.Item name="avatarUrl" label="Avatar">
          <MediaUpload kind="image" folder="avatars" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="firstName" label="First Name" htmlFor="student-firstName" rules={[required("First Name"), rule(nameLike)]}>
          <Input id="student-firstName" onChange={suggestion.onNameChange} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="lastName" label="Last Name" htmlFor="student-lastName" rules={[required("Last Name"), rule(nameLike)]}>
          <Input id="student-lastName" onChange={suggestion.onNameChange} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label="Username" required>
          <Space.Compact style={{ width: "100%" }}>
            <Form.Item name="username" noStyle rules={[required("Username"), rule(usernameRule)]}>
              <Input id="student-username" aria-label="Username" onChange={suggestion.onUsernameTyped} />
            </Form.Item>
            <Button onClick={() => void suggestion.suggestNow()}>Suggest</Button>
          </Space.Compact>
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="email" label="Email" htmlFor="student-email" rules={[{ type: "email", message: "Please input a valid email!" }]}>
          <Input id="student-email" type="email" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="phone" label="Phone" rules={[phoneRule(false)]}>
          <PhoneInput />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="dob" label="Date of Birth" htmlFor="student-dob">
          <DateInput id="student-dob" style={{ width: "100%" }} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="gender" label="Gender" htmlFor="student-gender">
          <Select id="student-gender" allowClear options={options(GENDER_LABELS)} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="branchId" label="Branch" htmlFor="student-branch" rules={[{ required: true, message: "Please select branch!" }]}>
          <RelationSelect id="student-branch" target="branches" />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="address" label="Address" htmlFor="student-address">
          <Input.TextArea id="student-address" rows={2} />
        </Form.Item>
      </Col>
    </Row>
  );
}

/** Students a sibling may be: other students, not deleted or draft. */
const SIBLING_WHERE = { type: { _eq: "student" }, status: { _nin: ["deleted", "draft"] } } as const;

export function FamilySection({ form, selfId }: { form: FormInstance; selfId?: string }) {
  const parents = (Form.useWatch("parents", form) as ParentValues[] | undefined) ?? [];
  const emergencyParent = parents.some((p) => p?.isEmergencyContact);
  /** Marking one parent as the primary contact unmarks the others (exactly one). */
  const makePrimary = (index: number) =>
    form.setFieldValue("parents", (form.getFieldValue("parents") as ParentValues[]).map((p, i) => ({ ...p, primaryContact: i === index })));
  return (
    <>
      <Form.List
        name="parents"
        rules={[
          {
            validator: async (_, value: ParentValues[] | undefined) => {
              const m = primaryContactProblem(value ?? []);
              if (m) throw new Error(m);
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, index) => (
              <Card
                key={field.key}
                size="small"
                title={`Parent ${index + 1}`}
                style={{ marginBottom: 12 }}
                extra={fields.length > 1 && <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Remove parent ${index + 1}`} onClick={() => remove(field.name)} />}
              >
                <Row gutter={16}>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, "relationship"]} label="Relationship" htmlFor={`parent-${index}-relationship`} rules={[{ required: true, message: "Please select relationship!" }]}>
                      <Select id={`parent-${index}-relationship`} options={options(PARENT_RELATIONSHIPS)} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, "firstName"]} label="First Name" htmlFor={`parent-${index}-firstName`} rules={[required("First Name"), rule(nameLike)]}>
                      <Input id={`parent-${index}-firstName`} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, "lastName"]} label="Last Name" htmlFor={`parent-${index}-lastName`} rules={[rule(nameLike)]}>
                      <Input id={`parent-${index}-lastName`} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, "email"]} label="Email" htmlFor={`parent-${index}-email`} rules={[{ type: "email", message: "Please input a valid email!" }]}>
                      <Input id={`parent-${index}-email`} type="email" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, "occupation"]} label="Occupation" htmlFor={`parent-${index}-occupation`}>
                      <Input id={`parent-${index}-occupation`} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, "phone"]} label="Phone" rules={[phoneRule(true)]} data-testid={`parent-${index}-phone`}>
                      <PhoneInput />
                    </Form.Item>
                  </Col>
                  <Col xs={12} md={8}>
                    <Form.Item name={[field.name, "primaryContact"]} valuePropName="checked" noStyle>
                      <Checkbox onChange={(e) => e.target.checked && makePrimary(index)}>Primary contact</Checkbox>
                    </Form.Item>
                  </Col>
                  <Col xs={12} md={8}>
                    <Form.Item name={[field.name, "isEmergencyContact"]} valuePropName="checked" noStyle>
                      <Checkbox>Emergency contact</Checkbox>
                    </Form.Item>
                  </Col>
                </Row>
              </Card>
            ))}
            <Form.ErrorList errors={errors} />
            <Button icon={<PlusOutlined />} onClick={() => add({ ...NEW_PARENT, primaryContact: fields.length === 0, isEmergencyContact: false })} style={{ margin: "8px 0 16px" }}>
              Add Parent
            </Button>
          </>
        )}
      </Form.List>
      <Form.Item name="siblings" label="Siblings" htmlFor="student-siblings" help="Link existing students">
        <RelationSelect id="student-siblings" target="users" labelField="fullName" many where={selfId ? { ...SIBLING_WHERE, id: { _neq: selfId } } : SIBLING_WHERE} />
      </Form.Item>
      <Card size="small" title="Emergency Contact" style={{ marginTop: 16 }}>
        {emergencyParent && <p>Left blank, the parent marked as the emergency contact is used.</p>}
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name={["emergencyContact", "firstName"]} label="First Name" htmlFor="emergency-firstName" rules={[...(emergencyParent ? [] : [required("First Name")]), rule(nameLike)]}>
              <Input id="emergency-firstName" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={["emergencyContact", "lastName"]} label="Last Name" htmlFor="emergency-lastName" rules={[rule(nameLike)]}>
              <Input id="emergency-lastName" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={["emergencyContact", "phone"]} label="Phone" rules={[phoneRule(!emergencyParent)]}>
              <PhoneInput />
            </Form.Item>
          </Col>
        </Row>
      </Card>
    </>
  );
}

export function StudentInfoSection({ form }: { form: FormInstance }) {
  const curriculumId = Form.useWatch("curriculumId", form) as string | null | undefined;
  return (
    <Row gutter={16}>
      <Col xs={24} md={8}>
        <Form.Item name="schoolId" label="School" htmlFor="student-school" rules={[{ required: true, message: "Please select school!" }]}>
          <RelationSelect id="student-school" target="schools" />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name="curriculumId" label="Curriculum" htmlFor="student-curriculum" rules={[{ required: true, message: "Please select curriculum!" }]}>
          <RelationSelect id="student-curriculum" target="curriculums" withCompany onChange={() => form.setFieldValue("levelId", null)} />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name="levelId" label="Level" htmlFor="student-level" rules={[{ required: true, message: "Please select level!" }]}>
          <RelationSelect
            key={curriculumId ?? "none"}
            id="student-level"
            target="levels"
            withCompany
            disabled={!curriculumId}
            where={curriculumId ? { curriculumsLevels: { curriculumId: { _eq: curriculumId }, status: { _neq: "deleted" } } } : undefined}
          />
        </Form.Item>
      </Col>
      <Col xs={12} md={8}>
        <Form.Item name="subscribe" label="Subscribe" valuePropName="checked">
          <Switch aria-label="Subscribe" />
        </Form.Item>
      </Col>
      <Col xs={12} md={8}>
        <Form.Item name="payOnline" label="Pay Online" valuePropName="checked">
          <Switch aria-label="Pay Online" />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.List name="references">
          {(fields, { add, remove }) => (
            <Card size="small" title="References" extra={<Button icon={<PlusOutlined />} onClick={() => add({})}>Add Reference</Button>}>
              {fields.length === 0 && <span>No references.</span>}
              {fields.map((field, index) => (
                <Space key={field.key} align="start" style={{ display: "flex" }}>
                  <Form.Item name={[field.name, "name"]} label="Referred by" htmlFor={`reference-${index}-name`} rules={[rule(nameLike)]}>
                    <Input id={`reference-${index}-name`} />
                  </Form.Item>
                  <Form.Item name={[field.name, "discountCode"]} label="Discount Code" htmlFor={`reference-${index}-code`} rules={[required("Discount Code")]}>
                    <Input id={`reference-${index}-code`} />
                  </Form.Item>
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Remove reference ${index + 1}`} onClick={() => remove(field.name)} style={{ marginTop: 30 }} />
                </Space>
              ))}
            </Card>
          )}
        </Form.List>
      </Col>
    </Row>
  );
}
