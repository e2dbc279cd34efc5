/** /user/create: a new staff user; the server mails a temporary password to change at first sign-in. */
import { UserForm } from "./UserForm.tsx";

export default function UserCreatePage() {
  return <UserForm action="create" />;
}
