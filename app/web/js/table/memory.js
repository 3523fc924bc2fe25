// The table's log and chat, kept in this tab's session storage so a reload keeps them.

const KEPT_CHANGES = 150; // changes' events kept per table for the log after a reload
export const KEPT_CHAT = 200;

export function memory(tableId) {
  const key = (what) => `domino.table.${tableId}.${what}`;
  const read = (what) => {
    try {
      return JSON.parse(sessionStorage.getItem(key(what)) || "[]");
    } catch {
      return [];
    }
  };
  const write = (what, items, keep) => {
    try {
      sessionStorage.setItem(key(what), JSON.stringify(items.slice(-keep)));
    } catch {
      // A full storage only costs the memory of the log.
    }
  };
  return {
    changes: read("log"),
    chat: read("chat"),
    // Moves on whenever `changes` is rewritten rather than added to (the log drawn from
    // them is then drawn again whole).
    rewrites: 0,
    addChange(seq, events) {
      if (this.changes.some((c) => c.seq === seq)) return false;
      this.changes.push({ seq, events });
      write("log", this.changes, KEPT_CHANGES);
      return true;
    },
    /** The whole game's events up to `version` (the server's log), then the changes
     * kept after it. */
    replaceUpTo(version, events) {
      this.changes = [{ seq: version, events }, ...this.changes.filter((c) => c.seq > version)];
      this.rewrites += 1;
      write("log", this.changes, KEPT_CHANGES);
    },
    addChat(msg) {
      this.chat.push(msg);
      write("chat", this.chat, KEPT_CHAT);
    },
  };
}
