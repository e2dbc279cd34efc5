/**
 * The reusable student picker (spec part 2 §2, §5): a search box 'Search by student name or username',
 * options with name, username, school, curriculum and level ('__' where missing), 20 a page (more load as
 * the list scrolls), and the chosen student's card below. Works as an antd form control (value/onChange);
 * the credit-note screens give it their rule 'Please select student!' and `hideWhenDisabled`.
 */
import { Select, Space, Spin, Typography } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { StudentCard } from "./StudentCard.tsx";
import { fetchStudent, searchStudents, studentOptionParts, type StudentOption } from "./studentSearch.ts";

export const STUDENT_SEARCH_PLACEHOLDER = "Search by student name or username";
export const PLEASE_SELECT_STUDENT = "Please select student!";
const SEARCH_DEBOUNCE_MS = 300;

export interface StudentPickerProps {
  value?: string | null;
  onChange?: (id: string | null, student: StudentOption | null) => void;
  disabled?: boolean;
  /** The credit-note variant: only the card shows when the picker is disabled. */
  hideWhenDisabled?: boolean;
  /** Show the chosen student's card (default true). */
  showCard?: boolean;
  id?: string;
  status?: "error" | "";
}

export function StudentPicker({ value, onChange, disabled, hideWhenDisabled, showCard = true, id, status }: StudentPickerProps) {
  const [text, setText] = useState("");
  const [rows, setRows] = useState<StudentOption[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(false);
  const [chosen, setChosen] = useState<StudentOption | null>(null);
  const request = useRef(0);

  // Search (debounced) whenever the text changes; page 1 replaces the options.
  useEffect(() => {
    const handle = setTimeout(() => void load(text, 1), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(handle);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  // A value set from outside (an existing record) shows that student, whether or not it is among the options.
  useEffect(() => {
    if (!value) return setChosen(null);
    if (chosen?.id === value) return;
    const listed = rows.find((r) => r.id === value);
    if (listed) return setChosen(listed);
    let live = true;
    fetchStudent(value).then((s) => live && setChosen(s), (err) => console.error("[student picker]", err));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  async function load(search: string, p: number) {
    const mine = ++request.current;
    setLoading(true);
    try {
      const res = await searchStudents(search, p);
      if (mine !== request.current) return;
      setRows((prev) => (p === 1 ? res.rows : [...prev, ...res.rows.filter((r) => !prev.some((x) => x.id === r.id))]));
      setTotal(res.total);
      setPage(p);
    } catch (err) {
      // Failures of list queries are silently ignored (spec part 2 §8).
      console.error("[student picker]", err);
    } finally {
      if (mine === request.current) setLoading(false);
    }
  }

  const options = useMemo(() => {
    const list = chosen && !rows.some((r) => r.id === chosen.id) ? [chosen, ...rows] : rows;
    return list.map((s) => ({
      value: s.id,
      label: studentOptionParts(s).join(" | "),
      student: s,
    }));
  }, [rows, chosen]);

  const picker =
    disabled && hideWhenDisabled ? null : (
      <Select
        id={id}
        status={status}
        showSearch
        allowClear
        disabled={disabled}
        style={{ width: "100%" }}
        placeholder={STUDENT_SEARCH_PLACEHOLDER}
        filterOption={false}
        value={value ?? undefined}
        onSearch={setText}
        onOpenChange={(open) => open && rows.length === 0 && void load(text, 1)}
        notFoundContent={loading ? <Spin size="small" /> : undefined}
        onPopupScroll={(e) => {
          const el = e.currentTarget;
          if (!loading && rows.length < total && el.scrollTop + el.clientHeight >= el.scrollHeight - 24) void load(text, page + 1);
        }}
        options={options}
        optionRender={(o) => {
          const [name, username, school, curriculum, level] = studentOptionParts((o.data as { student: StudentOption }).student);
          return (
            <Space direction="vertical" size={0} data-testid="student-option">
              <Typography.Text strong>{name}</Typography.Text>
              <Typography.Text type="secondary">
                {username} · {school} · {curriculum} · {level}
              </Typography.Text>
            </Space>
          );
        }}
        onChange={(v: string | undefined) => {
          const s = v ? (options.find((o) => o.value === v)?.student ?? null) : null;
          setChosen(s);
          onChange?.(v ?? null, s);
        }}
      />
    );
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      {picker}
      {showCard && chosen && chosen.id === value ? <StudentCard student={chosen} /> : null}
    </Space>
  );
}
