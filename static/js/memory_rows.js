// The memory list's rows: edit and delete in place. Delete asks in the row (never a browser
// confirm() dialog), then waits a few seconds in which Undo keeps the memory. Deletion is exact
// forgetting with a receipt and cannot be taken back on the server, so the undo is this wait:
// nothing is sent until it is over. Without this script the row's Edit and Delete links open
// the edit page and the delete confirmation page, which work on their own.
(function () {
  "use strict";

  var UNDO_SECONDS = 6;
  var waiting = new Map(); // row element -> {timer, form}

  function part(row, name) {
    return row.querySelector("[data-row-" + name + "]");
  }

  // One of "view", "confirm", "pending", "edit": which of the row's parts shows.
  function show(row, state) {
    row.setAttribute("data-state", state);
    var view = part(row, "view");
    if (view) view.hidden = state === "pending" || state === "edit";
    part(row, "confirm").hidden = state !== "confirm";
    part(row, "pending").hidden = state !== "pending";
    part(row, "edit-form").hidden = state !== "edit";
  }

  function send(row) {
    var entry = waiting.get(row);
    if (!entry) return;
    waiting.delete(row);
    clearTimeout(entry.timer);
    var form = entry.form;
    // Sent: from here on it cannot be taken back, so Undo no longer offers to.
    part(row, "undo").disabled = true;
    // keepalive: a delete whose wait ends as the page closes still reaches the server.
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      keepalive: true,
      headers: { "HX-Request": "true" },
    })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        if (!row.isConnected) return;
        var holder = document.createElement("template");
        holder.innerHTML = html.trim();
        var gone = holder.content.firstElementChild;
        if (!gone) return;
        row.replaceWith(gone);
        var note = gone.querySelector("[data-row-gone]");
        if (note) note.focus();
      })
      .catch(function () {
        if (!row.isConnected) return;
        var pending = part(row, "pending");
        part(row, "undo").disabled = false;
        show(row, "confirm");
        part(row, "confirm").querySelector("p").textContent = pending.getAttribute("data-failed");
        part(row, "confirm").querySelector("button[type=submit]").focus();
      });
  }

  function undo(row) {
    var entry = waiting.get(row);
    if (!entry) return;
    clearTimeout(entry.timer);
    waiting.delete(row);
    show(row, "view");
    part(row, "delete").focus();
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var row = target && target.closest("[data-memory-row]");
    if (!row || !part(row, "confirm")) return;
    if (target.closest("[data-row-delete]")) {
      event.preventDefault();
      show(row, "confirm");
      part(row, "confirm").querySelector("[data-row-cancel]").focus();
    } else if (target.closest("[data-row-edit]")) {
      event.preventDefault();
      show(row, "edit");
      var box = part(row, "edit-form").querySelector("textarea");
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
    } else if (target.closest("[data-row-cancel]")) {
      var wasEditing = row.getAttribute("data-state") === "edit";
      show(row, "view");
      part(row, wasEditing ? "edit" : "delete").focus();
    } else if (target.closest("[data-row-undo]")) {
      undo(row);
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target instanceof HTMLFormElement ? event.target : null;
    if (!form || !form.hasAttribute("data-row-delete-form")) return;
    event.preventDefault();
    var row = form.closest("[data-memory-row]");
    if (waiting.has(row)) return;
    show(row, "pending");
    part(row, "undo").focus();
    waiting.set(row, {
      form: form,
      timer: setTimeout(function () {
        send(row);
      }, UNDO_SECONDS * 1000),
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !(event.target instanceof Element)) return;
    var row = event.target.closest("[data-memory-row]");
    var state = row && row.getAttribute("data-state");
    if (state === "confirm" || state === "edit") {
      show(row, "view");
      part(row, state === "edit" ? "edit" : "delete").focus();
    }
  });

  // Leaving the page ends the wait: what the person chose to delete is deleted.
  window.addEventListener("pagehide", function () {
    Array.from(waiting.keys()).forEach(send);
  });
})();
