// Copy buttons on the "Connected agents" page. Without this script the token and the
// configuration stay selectable text, so the page works without JavaScript.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const source = document.querySelector(button.dataset.copy);
    if (!source || !navigator.clipboard) continue;
    button.hidden = false;
    const label = button.textContent;
    button.addEventListener("click", async () => {
      const text = "value" in source ? source.value : source.textContent;
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = button.dataset.copied || label;
      } catch {
        // The clipboard may be refused (no secure context): select the text instead.
        if ("select" in source) source.select();
        return;
      }
      setTimeout(() => { button.textContent = label; }, 2000);
    });
  }
});
