// pnpgen serve: when the server says the game was rebuilt, fetch the page again and swap in the
// sections that changed (the rest of the page, and the scroll position, stay as they are).
"use strict";
(function () {
  let fetching = null, again = false;
  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = fetch("/", {cache: "no-store"}).then(r => r.text()).then(text => {
      const fresh = new DOMParser().parseFromString(text, "text/html");
      for (const holder of ["main", "aside"]) {
        const old = document.querySelector(holder), now = fresh.querySelector(holder);
        if (!old || !now) continue;
        const kept = new Map([...old.children].map(el => [el.id, el]));
        let before = null;
        for (const section of [...now.children]) {
          const current = kept.get(section.id);
          kept.delete(section.id);
          let placed = current;
          if (!current) placed = document.importNode(section, true);
          else if (current.outerHTML !== section.outerHTML) {
            placed = document.importNode(section, true);
            current.replaceWith(placed);
          }
          const next = before ? before.nextElementSibling : old.firstElementChild;
          if (placed !== next) old.insertBefore(placed, next);
          before = placed;
        }
        for (const gone of kept.values()) gone.remove();
      }
      document.title = fresh.title;
    }).catch(() => {}).finally(() => {
      fetching = null;
      if (again) { again = false; refresh(); }
    });
  }
  const shown = () => document.getElementById("status").dataset.version;
  const events = new EventSource("/events");   // reconnects by itself after the server restarted
  events.onmessage = (event) => { if (event.data !== shown()) refresh(); };
})();
