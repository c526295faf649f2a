// Test extension for e2e/specs/custom-entries.spec.ts: on /entry-probe it
// saves a custom entry (pi.appendEntry: kept in the session, never sent to
// the model) and sends two custom messages (pi.sendMessage): one shown, in
// Markdown with HTML that must stay text, and one with display: false.
// Loaded with `pier … -- -e <this file>`.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export const REPORT = [
  "## Probe report",
  "",
  "- first finding",
  "- second finding",
  "",
  "See [the docs](https://example.com/docs) for more.",
  "",
  "<img src=x onerror=\"window.__probePwned = 'img'\">",
  "",
  "<script>window.__probePwned = 'script'</script>",
].join("\n");

export default function (pi: ExtensionAPI) {
  pi.registerCommand("entry-probe", {
    description: "append a custom entry and send custom messages (one shown, one hidden)",
    handler: async () => {
      pi.appendEntry("probe-state", { title: "<b>not bold</b>", count: 3, nested: { list: ["alpha", "beta"] } });
      pi.sendMessage({ customType: "probe-report", content: REPORT, display: true });
      pi.sendMessage({ customType: "probe-hidden", content: "the hidden probe text", display: false });
    },
  });
}
