// Small behaviour around htmx's SSE extension on the chat page. Everything works without it.
(function () {
  "use strict";

  function nearBottom() {
    var scroller = document.scrollingElement || document.documentElement;
    return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 160;
  }

  function followIfNearBottom(wasNearBottom) {
    if (wasNearBottom) {
      window.scrollTo(0, (document.scrollingElement || document.documentElement).scrollHeight);
    }
  }

  // A (re)connected stream sends the whole reply from its start, so drop any partial text
  // an earlier connection left behind.
  document.addEventListener("htmx:sseOpen", function (event) {
    var text = event.target.querySelector(".bubble__text");
    if (text) {
      text.textContent = "";
    }
  });

  // The outline comes again, out of band, with each message and reply: its folds stay as
  // the person left them (or as a wide screen opened them), not as the server wrote them.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail.target;
    if (!old || old.id !== "session-outline" || !event.detail.fragment) {
      return;
    }
    event.detail.fragment.querySelectorAll("details").forEach(function (details) {
      old.querySelectorAll("details").forEach(function (before) {
        if (before.className === details.className) {
          details.open = before.open;
        }
      });
    });
  });

  // Streaming ended: let screen readers announce the finished reply.
  document.addEventListener("htmx:sseClose", function (event) {
    event.target.removeAttribute("aria-busy");
    event.target.classList.remove("bubble--streaming");
  });

  var wasNearBottom = true;
  document.addEventListener("htmx:sseBeforeMessage", function () {
    wasNearBottom = nearBottom();
  });
  document.addEventListener("htmx:sseMessage", function () {
    followIfNearBottom(wasNearBottom);
  });
  document.addEventListener("htmx:beforeSwap", function () {
    wasNearBottom = nearBottom();
  });
  document.addEventListener("htmx:afterSettle", function () {
    followIfNearBottom(wasNearBottom);
  });

  // After a message is sent the form is replaced by a fresh one; keep typing in it.
  // The event arrives from the old form's nearest remaining ancestor, so look at the request.
  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig;
    var form = config && config.elt;
    if (!event.detail.successful || !form || !form.matches || !form.matches(".composer__form")) {
      return;
    }
    var active = document.activeElement;
    if (!active || active === document.body) {
      var textarea = document.querySelector("#message-form textarea");
      if (textarea) {
        textarea.focus();
      }
    }
  });

  // A touch screen's keyboard has no Shift+Enter: there Enter starts a new line and the Send
  // button sends, and the hint saying otherwise is hidden (app CSS, same media query).
  var touch = window.matchMedia("(hover: none), (pointer: coarse)");

  // The hint is hidden on touch screens; a screen reader should not read it there either.
  // Sending replaces the form, so this runs again after each swap.
  function withoutKeyHint() {
    if (!touch.matches) {
      return;
    }
    document.querySelectorAll('[aria-describedby="composer-hint"]').forEach(function (box) {
      box.removeAttribute("aria-describedby");
    });
  }
  document.addEventListener("htmx:afterSettle", withoutKeyHint);

  // Enter sends the message, Shift+Enter starts a new line. Never while an input method is
  // composing (Korean is typed through one: Enter there confirms the syllable, not the message).
  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) {
      return;
    }
    if (touch.matches) {
      return;
    }
    if (!box.matches || !box.matches(".composer__form textarea")) {
      return;
    }
    event.preventDefault();
    if (box.value.trim() && box.form) {
      box.form.requestSubmit();
    }
  });

  // On first load of a chat, show the newest messages, unless the link points at one
  // message (a memory's source or use, /messages/<id>/): the browser shows that one.
  document.addEventListener("DOMContentLoaded", function () {
    // An ended conversation's summary and topics come folded (a phone shows the messages
    // first); beside the messages on a wide screen there is room to show them open.
    if (window.matchMedia("(min-width: 64rem)").matches) {
      document.querySelectorAll("details[data-open-wide]").forEach(function (details) {
        details.open = true;
      });
    }
    withoutKeyHint();
    var linked = window.location.hash.indexOf("#message-") === 0;
    if (document.getElementById("messages") && !linked) {
      followIfNearBottom(true);
    }
  });
})();
