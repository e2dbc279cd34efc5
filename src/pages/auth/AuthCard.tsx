/** The frame of the public pages: a centred card. Only light antd pieces (no layout, no Refine). */
import type { ReactNode } from "react";

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div style={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center", background: "#f0f2f5", padding: 16 }}>
      <div style={{ width: "100%", maxWidth: 400, background: "#fff", borderRadius: 8, padding: "32px 32px 24px", boxShadow: "0 2px 8px rgba(0,0,0,0.08)" }}>
        <div style={{ fontSize: 14, color: "rgba(0,0,0,0.45)", marginBottom: 4 }}>Centre Back-office</div>
        <h1 style={{ fontSize: 24, margin: "0 0 24px" }}>{title}</h1>
        {children}
      </div>
    </div>
  );
}
