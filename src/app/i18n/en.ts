/**
 * English texts by message key. The spec's keys keep the spec's text (part 1 §5: 'invalid_number',
 * 'At_least_{N}_characters' with N interpolated); other keys hold the spec's exact messages.
 * Interpolation: `{{name}}` or `{name}` is replaced by options.name.
 * The resource framework adds its keys here.
 */
export const en: Record<string, string> = {
  // Shared validation (spec part 1 §5)
  invalid_number: "invalid_number",
  "At_least_{N}_characters": "At_least_{N}_characters",
  username_not_allow_space: "Not allow space for username",
  name_special_characters: "Space and Special characters not allowed",
  image_size_exceeded: "The image size exceeds the allowable limit.",
  upload_failed: "Upload failed!",
  // Sign-in and session (spec part 1 §2, §8)
  account_locked: "Your account has been locked due to multiple failed login attempts. Kindly contact the administrator to unlock it.",
  logout_confirm: "Do you want to Log out?",
  yes: "Yes",
  no: "No",
  // Lists (spec part 1 §2)
  list_counter: "Viewing from {{from}} - {{to}} (out of {{total}} records)",
  // Not found
  not_found_title: "404",
  not_found_text: "Sorry, the page you visited does not exist.",
  back_home: "Back Home",
  // A route the user's roles may not open (issue 19)
  forbidden_title: "403",
  forbidden_text: "You do not have access to this page",
};
