/** The text of a failure as the spec shows it: the message followed by a period. */
export function errorMessage(error: unknown): string {
  const e = error as { response?: { errors?: { message?: string }[] }; message?: string } | null;
  const message = e?.response?.errors?.[0]?.message ?? e?.message ?? "Something went wrong";
  return message.endsWith(".") ? message : `${message}.`;
}

