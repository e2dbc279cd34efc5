/** A phone number as { code, number }: country code and digits (PhoneInput edits it). */
export interface Phone {
  code: string;
  number: string;
}

export const formatPhone = (p: Phone | null | undefined) => (p && p.number ? `${p.code ? `${p.code} ` : ""}${p.number}` : "");
