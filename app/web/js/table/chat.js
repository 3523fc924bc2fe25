// The table's chat: the players seated there write, watchers read along.

import { auth } from "../api.js";
import { h, replace } from "../dom.js";
import { clockTime, t } from "../i18n.js";
import { KEPT_CHAT } from "./memory.js";

function chatLine(msg) {
  return h("li", {},
    h("span", { class: "chat-time" }, clockTime(msg.at || Date.now())),
    " ", h("strong", { class: "chat-from" }, String(msg.from ?? "")), " ", h("span", { class: "chat-text" }, String(msg.text ?? "")));
}

export function renderChat(ctx) {
  const list = ctx.el.chatList;
  replace(list, ctx.kept.chat.map(chatLine));
  list.scrollTop = list.scrollHeight;
}

export function renderChatBox(ctx) {
  const { el } = ctx;
  const v = ctx.view();
  // Only the players seated at the table may chat; watchers read along.
  const canChat = ctx.seated(v) || ctx.mySeatInTable() !== null;
  el.chatForm.hidden = !canChat;
  el.chatNote.hidden = canChat;
  el.chatNote.textContent = auth.signedIn ? t("chat.players_only") : t("chat.sign_in");
}

/** A chat message arrived. */
export function onChat(ctx, msg) {
  if (msg.table_id !== ctx.tableId) return;
  const list = ctx.el.chatList;
  ctx.kept.addChat(msg);
  list.append(chatLine(msg));
  while (list.children.length > KEPT_CHAT) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

/** The chat form sends its text to the table. */
export function chatForm(ctx) {
  const { el } = ctx;
  el.chatForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = el.chatInput.value.trim();
    if (!text) return;
    ctx.send({ type: "chat", text: text.slice(0, 300) });
    el.chatInput.value = "";
  });
}
