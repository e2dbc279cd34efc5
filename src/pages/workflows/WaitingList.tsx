/**
 * A workflow's generated list with a "Waiting for me" switch and its count: the documents whose step waits
 * on a right the user holds (FINANCE.md §5) — how a hand-off reaches the next role.
 */
import { Badge, Space, Switch, Typography } from "antd";
import type { CrudFilter } from "@refinedev/core";
import { useWaitingCount } from "../../app/waiting.ts";
import { useMemo, useState, type ReactNode } from "react";
import type { Resource } from "../../framework/types.ts";
import { ListView } from "../../framework/pages/ListView.tsx";

export interface WaitingListProps {
  resource: Resource;
  /** The status column and the statuses waiting on the user (empty: the switch is not shown). */
  statusField: string;
  waiting: readonly string[];
  /**
   * Whether a row at this status offers the user an action (a move whose right they hold): such a row opens to act
   * (Edit), any other to read (View) — from the same rights as the count, so a counted row always opens to act.
   */
  actionable: (status: string) => boolean;
  extra?: ReactNode;
}

export function WaitingList({ resource, statusField, waiting, actionable, extra }: WaitingListProps) {
  const [mine, setMine] = useState(false);
  const count = useWaitingCount(resource.table, statusField, waiting);
  const key = waiting.join();
  const extraFilters = useMemo<CrudFilter[]>(() => (mine && waiting.length ? [{ field: statusField, operator: "in", value: [...waiting] }] : []), [mine, key, statusField]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <ListView
      resource={resource}
      extraFilters={extraFilters}
      rowEditable={(record) => actionable(String(record[statusField]))}
      extra={
        <Space>
          {waiting.length > 0 && (
            <label>
              <Space size={6}>
                <Switch size="small" checked={mine} onChange={setMine} aria-label="Waiting for me" />
                <Typography.Text>Waiting for me</Typography.Text>
                <Badge count={count ?? 0} showZero color={count ? "#f5222d" : "#bfbfbf"} data-testid="waiting-count" />
              </Space>
            </label>
          )}
          {extra}
        </Space>
      }
    />
  );
}
