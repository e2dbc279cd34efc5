/** /posts/{id} and /resource/detail/{id}: open the mobile app on a phone, else the public website. */
import { useEffect } from "react";
import { useParams } from "react-router";
import { config } from "../../app/config.ts";
import { deepLinkPlan, detectDevice } from "../../app/deepLink.ts";

export default function DeepLinkPage({ kind }: { kind: "post" | "resource" }) {
  const { id = "" } = useParams();
  useEffect(() => {
    const plan = deepLinkPlan(kind, id, detectDevice(navigator.userAgent, navigator.maxTouchPoints), config);
    if (!plan.appUrl) {
      window.location.replace(plan.fallbackUrl);
      return;
    }
    window.location.href = plan.appUrl;
    const timer = setTimeout(() => window.location.replace(plan.fallbackUrl), plan.delayMs);
    return () => clearTimeout(timer);
  }, [kind, id]);
  return <p style={{ padding: 24, textAlign: "center" }}>Opening…</p>;
}
