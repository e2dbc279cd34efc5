/**
 * A declared route the user's roles may not open (issue 19): said plainly, unlike an unknown path, with
 * a way back to a page the user can open — the role's home when they may open it, else the menu's first
 * page; no link at all when there is none (a link to "/" would only come back here).
 */
import { Link } from "react-router";
import { t } from "../../app/i18n/index.ts";

export default function Forbidden({ home }: { home?: string }) {
  return (
    <div data-testid="forbidden" style={{ padding: "64px 24px", textAlign: "center", fontFamily: "inherit" }}>
      <div style={{ fontSize: 64, fontWeight: 600, color: "#bfbfbf", lineHeight: 1 }}>{t("forbidden_title")}</div>
      <p style={{ fontSize: 16, color: "rgba(0,0,0,0.65)", margin: "16px 0 24px" }}>{t("forbidden_text")}</p>
      {home && (
        <Link to={home} style={{ color: "#1677ff" }}>
          {t("back_home")}
        </Link>
      )}
    </div>
  );
}
