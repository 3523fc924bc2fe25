// The offline page in the reader's language: the catalogue the site last loaded for
// it, from the service worker's cache (under its hashed address), else English as written.

const RTL = ["fa"];
const code = localStorage.getItem("domino.lang") || String(navigator.language || "en").slice(0, 2);
document.getElementById("retry").addEventListener("click", () => location.reload());
const kept = "caches" in self ? await caches.match(`/lang/${code}.json`, { ignoreSearch: true }) : undefined;
if (kept) {
  const words = await kept.json();
  document.documentElement.lang = code;
  document.documentElement.dir = RTL.includes(code) ? "rtl" : "ltr";
  for (const el of document.querySelectorAll("[data-key]")) {
    if (typeof words[el.dataset.key] === "string") el.textContent = words[el.dataset.key];
  }
  if (typeof words["site.brand"] === "string") document.querySelector(".brand").textContent = words["site.brand"];
}
