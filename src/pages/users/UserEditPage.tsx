/** /user/{userId}/update: the user form filled from the users row, saved with PUT /users/{id}. */
import { Card, Spin } from "antd";
import { useOne } from "@refinedev/core";
import { useParams } from "react-router";
import { USER_FORM_FIELDS, UserForm, userFormValues } from "./UserForm.tsx";

export default function UserEditPage() {
  const { userId } = useParams();
  const { query } = useOne<Record<string, unknown>>({ resource: "users", id: userId, meta: { fields: USER_FORM_FIELDS }, queryOptions: { retry: false, enabled: Boolean(userId) } });
  if (query.isLoading) return <Spin size="large" />;
  const record = query.data?.data;
  if (!record || record.status === "deleted") return <Card title="Update User">This record does not exist.</Card>;
  return <UserForm key={String(record.id)} action="edit" id={String(record.id)} initialValues={userFormValues(record)} />;
}
