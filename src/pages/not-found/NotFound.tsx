/** The not-found screen: unknown paths, routes whose screen is not built yet, and routes the user's roles may not open. */
import { Link } from "react-router";
import { t } from "../../app/i18n/index.ts";

export default function NotFound() {
  return (
    <div data-testid="not-found" style={{ padding: "64px 24px", textAlign: "center", fontFamily: "inherit" }}>
      <div style={{ fontSize: 64, fontWeight: 600, color: "#bfbfbf", lineHeight: 1 }}>{t("not_found_title")}</div>
      <p style={{ fontSize: 16, color: "rgba(0,0,0,0.65)", margin: "16px 0 24px" }}>{t("not_found_text")}</p>
      <Link to="/" style={{ color: "#1677ff" }}>
        {t("back_home")}
      </Link>
    </div>
  );
}
