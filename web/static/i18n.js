/* The scripts' words in the page's language (docs/i18n.md). The bundle begins with
 * window.PuzzleCatalogue, the JSON of /-/i18n/<lang>.json; a message it lacks is shown in
 * English. Every message is a whole sentence with named placeholders, never glued from pieces:
 *
 *   t("Hint: {move}", { move })                                  one message
 *   tn("{count} move", "{count} moves", n, { count: num(n) })    CLDR plural forms
 *
 * Shared as window.PuzzleI18n { t, tn, num, N_, has, add, lang }. A plugin's client script is
 * served with its own catalogue's words for it first (add), so it says them with t() too.
 */
(function () {
  "use strict";

  const catalogue = window.PuzzleCatalogue || { locale: "en", messages: {} };
  const lang = catalogue.locale || "en";
  const messages = catalogue.messages || {};
  let rules;
  try { rules = new Intl.PluralRules(lang); } catch (err) { rules = new Intl.PluralRules("en"); }
  const english = new Intl.PluralRules("en");

  function fill(text, params) {
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }

  function t(message, params) {
    const found = messages[message];
    return fill(typeof found === "string" ? found : message, params);
  }

  function tn(one, other, n, params) {
    const found = messages[one];
    const values = Object.assign({ count: num(n) }, params || {});
    if (found && typeof found === "object") {
      const form = found[rules.select(Number(n))] || found.other;
      if (form) return fill(form, values);
    }
    return fill(english.select(Number(n)) === "one" ? one : other, values);
  }

  function num(n) {
    // Whole numbers grouped as the locale writes them; long digit strings exactly (BigInt).
    if (typeof n === "string" && /^\d{4,}$/.test(n)) return BigInt(n).toLocaleString(lang);
    return Number(n).toLocaleString(lang);
  }

  // Marks a message for extraction where it is shown later through t() (a word from data).
  const N_ = (message) => message;

  // Whether the catalogue has a translation of ``message`` (a word from data may have none).
  const has = (message) => lang === "en" || typeof messages[message] === "string";

  // A plugin's messages (its client script, web/pages.py): the host's own stay as they are.
  const add = (more) => {
    for (const [key, value] of Object.entries(more || {})) if (!(key in messages)) messages[key] = value;
  };

  window.PuzzleI18n = { t, tn, num, N_, has, add, lang };
})();
