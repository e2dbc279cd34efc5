/**
 * 'Select a Programme & Class' (spec part 2 §2, §5): full width; filters Academic Year, Curriculum,
 * Level, Subject, Programme Categories, Programme Type, Branch and an Apply button that reads 'Applied'
 * once applied; the class table (availability label, 'View Session'), 5/10/20/30 a page (default 5);
 * Close and 'Add to Payment'; 'Total Selected Class (n)'. A class of a programme already on the PA (or
 * already selected) is refused with "Class's programme is already existed!", unless it is a special programme.
 */
import { Button, Col, Form, InputNumber, Modal, Row, Space, Table, Tag, Typography } from "antd";
import { toast } from "../../../framework/toast.ts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { RelationSelect } from "../../../framework/inputs/RelationSelect.tsx";
import { classAvailability } from "../../../domain/classAvailability.ts";
import { DISPLAY_DATE_FORMAT, formatCalendarDay, formatInSingapore, todayInSingapore } from "../../../domain/dates.ts";
import {
  CLASS_PICKER_PAGE_SIZES,
  PROGRAMME_ALREADY_PICKED,
  fetchClassSessions,
  fetchPickerClasses,
  programmeAlreadyPicked,
  type ClassPickerFilters,
  type PickerClass,
} from "./classPicker.ts";

const REQUIRED = [{ required: true, message: "This field is required." }];

function ViewSession({ cls, onClose }: { cls: PickerClass; onClose: () => void }) {
  const { data, isFetching } = useQuery({ queryKey: ["class-sessions", cls.id], queryFn: () => fetchClassSessions(cls.id), retry: false });
  return (
    <Modal title={`View Session — ${cls.name}`} open onCancel={onClose} footer={<Button onClick={onClose}>Close</Button>} width={640}>
      <Table
        rowKey="id"
        size="small"
        loading={isFetching}
        dataSource={data ?? []}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        columns={[
          { title: "Index", key: "i", width: 72, render: (_v, _r, i) => i + 1 },
          { title: "Date", key: "date", render: (_v, l) => formatCalendarDay(l.date, DISPLAY_DATE_FORMAT) },
          {
            title: "Time",
            key: "time",
            render: (_v, l) => l.sessions.map((s) => `${formatInSingapore(s.startTime, "hh:mm A")} - ${formatInSingapore(s.endTime, "hh:mm A")}`).join(", "),
          },
        ]}
      />
    </Modal>
  );
}

export interface ClassPickerModalProps {
  open: boolean;
  companyId: string;
  /** Classes on the PA already, for the programme rule. */
  picked: readonly { programId: string | null }[];
  onClose: () => void;
  onAdd: (classes: PickerClass[]) => void;
}

export function ClassPickerModal({ open, companyId, picked, onClose, onAdd }: ClassPickerModalProps) {
  const [form] = Form.useForm<ClassPickerFilters>();
  const [applied, setApplied] = useState<ClassPickerFilters | null>(null);
  const [dirty, setDirty] = useState(true);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(CLASS_PICKER_PAGE_SIZES[0]);
  const [selected, setSelected] = useState<PickerClass[]>([]);
  const [sessionsOf, setSessionsOf] = useState<PickerClass | null>(null);
  const today = todayInSingapore();

  const { data, isFetching } = useQuery({
    queryKey: ["picker-classes", companyId, applied, page, pageSize],
    queryFn: () => fetchPickerClasses(companyId, applied!, page, pageSize),
    enabled: applied !== null,
    retry: false,
  });

  const select = (cls: PickerClass, on: boolean) => {
    if (!on) return setSelected((s) => s.filter((x) => x.id !== cls.id));
    const candidate = { programId: cls.programId, programCategory: cls.program?.category ?? null };
    if (programmeAlreadyPicked(candidate, [...picked, ...selected])) {
      void toast.warning(PROGRAMME_ALREADY_PICKED);
      return;
    }
    setSelected((s) => [...s, cls]);
  };

  const close = () => {
    setSelected([]);
    onClose();
  };

  const where = { companyId: { _eq: companyId } };
  return (
    <Modal
      title="Select a Programme & Class"
      open={open}
      width="100%"
      style={{ top: 16, maxWidth: "100vw" }}
      onCancel={close}
      destroyOnHidden
      footer={
        <Space style={{ width: "100%", justifyContent: "space-between" }}>
          <Typography.Text data-testid="total-selected">Total Selected Class ({selected.length})</Typography.Text>
          <Space>
            <Button onClick={close}>Close</Button>
            <Button
              type="primary"
              disabled={selected.length === 0}
              onClick={() => {
                onAdd(selected);
                setSelected([]);
              }}
            >
              Add to Payment
            </Button>
          </Space>
        </Space>
      }
    >
      <Form
        form={form}
        name="classFilters"
        layout="vertical"
        aria-label="Class filters"
        initialValues={{ year: Number(today.slice(0, 4)) }}
        onValuesChange={() => setDirty(true)}
        onFinish={(v) => {
          setApplied({ ...v });
          setPage(1);
          setDirty(false);
        }}
      >
        <Row gutter={12}>
          <Col xs={24} sm={12} md={6} lg={3}>
            <Form.Item name="year" label="Academic Year" rules={REQUIRED}>
              <InputNumber min={2000} max={2100} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={6} lg={3}>
            <Form.Item name="curriculumId" label="Curriculum">
              <RelationSelect target="curriculums" where={where} placeholder="Curriculum" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={6} lg={3}>
            <Form.Item name="levelId" label="Level">
              <RelationSelect target="levels" where={where} placeholder="Level" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={6} lg={3}>
            <Form.Item name="subjectId" label="Subject">
              <RelationSelect target="subjects" where={where} placeholder="Subject" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={6} lg={4}>
            <Form.Item name="categoryId" label="Programme Categories">
              <RelationSelect target="categories" placeholder="Programme Categories" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={6} lg={3}>
            <Form.Item name="programTypeId" label="Programme Type">
              <RelationSelect target="program_types" placeholder="Programme Type" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={6} lg={3}>
            <Form.Item name="branchId" label="Branch">
              <RelationSelect target="branches" placeholder="Branch" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} md={6} lg={2}>
            <Form.Item label=" ">
              <Button type="primary" htmlType="submit" disabled={!dirty && applied !== null}>
                {!dirty && applied !== null ? "Applied" : "Apply"}
              </Button>
            </Form.Item>
          </Col>
        </Row>
      </Form>
      <Table<PickerClass>
        rowKey="id"
        size="small"
        loading={isFetching}
        dataSource={applied ? (data?.rows ?? []) : []}
        data-testid="picker-classes"
        scroll={{ x: true }}
        rowSelection={{
          selectedRowKeys: selected.map((s) => s.id),
          preserveSelectedRowKeys: true,
          hideSelectAll: true,
          onSelect: (cls, on) => select(cls, on),
        }}
        pagination={{
          current: page,
          pageSize,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: CLASS_PICKER_PAGE_SIZES.map(String),
          onChange: (p, s) => {
            setPage(s === pageSize ? p : 1);
            setPageSize(s);
          },
        }}
        columns={[
          { title: "Class", key: "name", render: (_v, c) => c.name },
          { title: "Class Code", key: "code", render: (_v, c) => c.classCode ?? "" },
          { title: "Programme", key: "program", render: (_v, c) => c.program?.name ?? "" },
          { title: "Programme Type", key: "type", render: (_v, c) => c.programType?.name ?? "" },
          { title: "Branch", key: "branch", render: (_v, c) => c.branch?.name ?? "" },
          { title: "Start Date", key: "start", render: (_v, c) => formatCalendarDay(c.startDate, DISPLAY_DATE_FORMAT) },
          {
            title: "Availability",
            key: "availability",
            render: (_v, c) => (
              <Tag>{classAvailability({ classStatus: c.classStatus, startDate: c.startDate, today, enrolled: c.seats.aggregate.count, classSize: c.classSize })}</Tag>
            ),
          },
          {
            title: "",
            key: "sessions",
            render: (_v, c) => (
              <Button type="link" onClick={() => setSessionsOf(c)}>
                View Session
              </Button>
            ),
          },
        ]}
      />
      {sessionsOf && <ViewSession cls={sessionsOf} onClose={() => setSessionsOf(null)} />}
    </Modal>
  );
}
