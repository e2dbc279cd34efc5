/**
 * /programme/curriculum-level/create: a curriculum (name, abbreviation, name in reports, company) and the
 * levels it links (curriculums_levels). A level that does not exist yet can be added by name and
 * abbreviation in the same form.
 */
import { Button, Card, Form, Input, Space } from "antd";
import { toast } from "../../framework/toast.ts";
import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { useCreate, useCreateMany, useInvalidate } from "@refinedev/core";
import { useNavigate } from "react-router";
import { useState } from "react";
import { RelationSelect } from "../../framework/inputs/RelationSelect.tsx";

interface Values {
  name: string;
  abbreviation: string;
  nameOfReport?: string;
  companyId: string;
  levelIds?: string[];
  newLevels?: { name: string; abbreviation: string }[];
}

export default function CurriculumCreatePage() {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: createMany } = useCreateMany();
  const [saving, setSaving] = useState(false);

  const onFinish = async (v: Values) => {
    setSaving(true);
    try {
      const curriculum = await create({
        resource: "curriculums",
        values: { name: v.name.trim(), abbreviation: v.abbreviation.trim(), nameOfReport: v.nameOfReport || null, companyId: v.companyId },
        meta: { fields: ["id"] },
        successNotification: false,
        errorNotification: false,
      });
      const curriculumId = String(curriculum.data.id);
      const levelIds = [...(v.levelIds ?? [])];
      if (v.newLevels?.length) {
        const created = await createMany({
          resource: "levels",
          values: v.newLevels.map((l, i) => ({ name: l.name.trim(), abbreviation: l.abbreviation.trim(), companyId: v.companyId, order: 100 + i })),
          meta: { fields: ["id"] },
          successNotification: false,
          errorNotification: false,
        });
        levelIds.push(...created.data.map((l) => String(l.id)));
      }
      if (levelIds.length) {
        await createMany({
          resource: "curriculums_levels",
          values: levelIds.map((levelId) => ({ curriculumId, levelId })),
          meta: { fields: ["id"] },
          successNotification: false,
          errorNotification: false,
        });
      }
      void toast.success("Curriculum created.");
      await invalidate({ resource: "curriculums", invalidates: ["list"] });
      navigate("/programme/curriculum-level");
    } catch (err) {
      console.error("[curriculum] save failed", err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="Create Curriculum">
      <Form form={form} layout="vertical" onFinish={onFinish} aria-label="Create Curriculum">
        <Form.Item name="name" label="Curriculum Name" htmlFor="field-name" rules={[{ required: true, message: "Please input Curriculum Name!" }]}>
          <Input id="field-name" />
        </Form.Item>
        <Form.Item name="abbreviation" label="Abbreviation" htmlFor="field-abbreviation" rules={[{ required: true, message: "Please input Abbreviation!" }]}>
          <Input id="field-abbreviation" placeholder="A, IP, EXP, IB" />
        </Form.Item>
        <Form.Item name="nameOfReport" label="Name in Reports" htmlFor="field-nameOfReport">
          <Input id="field-nameOfReport" />
        </Form.Item>
        <Form.Item name="companyId" label="Company" rules={[{ required: true, message: "Please input Company!" }]}>
          <RelationSelect target="companies" id="field-companyId" />
        </Form.Item>
        <Form.Item name="levelIds" label="Levels">
          <RelationSelect target="levels" labelField="abbreviation" many id="field-levelIds" />
        </Form.Item>
        <Form.Item label="New levels">
          <Form.List name="newLevels">
            {(rows, { add, remove }) => (
              <>
                {rows.map((row) => (
                  <Space key={row.key} align="baseline">
                    <Form.Item name={[row.name, "name"]} rules={[{ required: true, message: "Name is required." }]}>
                      <Input placeholder="Level name" aria-label="Level name" />
                    </Form.Item>
                    <Form.Item name={[row.name, "abbreviation"]} rules={[{ required: true, message: "Abbreviation is required." }]}>
                      <Input placeholder="Abbreviation" aria-label="Level abbreviation" />
                    </Form.Item>
                    <MinusCircleOutlined aria-label="Remove level" onClick={() => remove(row.name)} />
                  </Space>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: "", abbreviation: "" })}>
                  Add level
                </Button>
              </>
            )}
          </Form.List>
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            Save
          </Button>
          <Button onClick={() => navigate("/programme/curriculum-level")}>Cancel</Button>
        </Space>
      </Form>
    </Card>
  );
}
