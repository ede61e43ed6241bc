"""An axe-core scan of a page in the browser (axe-core vendored under tests/e2e/vendor/)."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


def serious_violations(page) -> list[str]:
    """axe-core's WCAG 2 A/AA rules on the page as it is now: each serious or critical
    violation as "rule: target, target (help)"."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # Evaluated, not added as a <script>: the page's Content-Security-Policy refuses
        # inline scripts, and an evaluation from the test is outside it.
        page.evaluate(AXE.read_text())
    violations = page.evaluate(
        """async () => {
          // Judge the page as it settles, not mid-fade: a panel fading in (≤ 300 ms) has
          // text below its contrast. Infinite animations (a spinner) are not waited for.
          const finite = document.getAnimations().filter(
            (a) => a.playState === "running" && a.effect?.getTiming().iterations !== Infinity);
          await Promise.race([
            Promise.all(finite.map((a) => a.finished.catch(() => null))),
            new Promise((resolve) => setTimeout(resolve, 2000)),
          ]);
          const result = await axe.run(document, {
            runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
            resultTypes: ["violations"],
          });
          return result.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
          }));
        }"""
    )
    return [
        f"{v['id']}: {', '.join(v['targets'])} ({v['help']})"
        for v in violations
        if v["impact"] in BLOCKING
    ]
