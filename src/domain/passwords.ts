/** Password length rules (issue 4 §2, OWASP ASVS 2.1), shared by the server's check and the password forms. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
