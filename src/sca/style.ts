/**
 * The PSU pages' stylesheet, served by psd2-bank itself (no external assets); `idleSeconds`
 * (SCA_SESSION_IDLE_SECONDS) times the notices of a session about to end (views.ts idleNotice).
 */
export function stylesheet(idleSeconds: number): string {
  return STYLESHEET + idleRules(idleSeconds);
}

/**
 * Without script: each notice hidden until its moment, counted from the page's load (a reload or
 * the next step starts again, as the session's idle time does); the first a minute before the
 * limit, or halfway for a shorter limit; the second at the limit, in its place.
 */
function idleRules(idle: number): string {
  const soon = Math.max(0, idle - Math.min(60, Math.floor(idle / 2)));
  return `
.idle { position: fixed; top: 0; left: 0; right: 0; z-index: 2; visibility: hidden; }
.idle p { max-width: 34rem; margin: 0 auto; }
.idle-soon { animation: idle-show 0s ${soon}s forwards, idle-hide 0s ${idle}s forwards; }
.idle-over { animation: idle-show 0s ${idle}s forwards; }
@keyframes idle-show { to { visibility: visible; } }
@keyframes idle-hide { to { visibility: hidden; } }
`;
}

const STYLESHEET = `
:root { color-scheme: light; --ink: #1a1f36; --muted: #4f566b; --brand: #0b4f8a; --error: #a4161a; }
* { box-sizing: border-box; }
body {
  margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: #f4f6fa;
}
header { background: var(--brand); color: #fff; padding: 0.75rem 1.25rem; }
header { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center;
  justify-content: space-between; }
header .bank { margin: 0; font-weight: 700; display: flex; align-items: center; gap: 0.6rem; }
/* The logo is decoration next to the bank's name, so a background rather than an <img>. */
header .bank::before { content: ""; width: 2rem; height: 2rem; border-radius: 4px;
  background: #fff url(/sca/static/logo) center / contain no-repeat; }
.languages ul { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; list-style: none; margin: 0;
  padding: 0; font-size: 0.9rem; }
.languages a { color: #fff; }
.languages .short { display: none; }
.languages [aria-current] { font-weight: 700; text-decoration: none; }
main {
  max-width: 34rem; margin: 1.5rem auto; background: #fff; padding: 1.5rem; border-radius: 8px;
  box-shadow: 0 1px 3px rgb(0 0 0 / 0.12);
}
h1 { font-size: 1.25rem; margin-top: 0; }
.steps {
  display: flex; gap: 1rem; list-style: none; padding: 0; color: var(--muted); font-size: 0.9rem;
}
.steps [aria-current] { color: var(--brand); font-weight: 700; }
label, legend { display: block; font-weight: 600; margin-top: 1rem; }
input:not([type=checkbox]):not([type=radio]) {
  width: 100%; padding: 0.6rem; font-size: 1rem; border: 1px solid #8792a2; border-radius: 4px;
}
:focus-visible { outline: 3px solid var(--brand); outline-offset: 2px; }
/* WCAG 1.4.11: the focus ring keeps 3:1 against what is behind it, white or the brand blue. */
header :focus-visible { outline-color: #fff; }
/* No default blue (#0000EE) anywhere: every link in the bank's colour unless a rule says else. */
a { color: var(--brand); }
/* Buttons in the page's font, not the browser's control font. */
button { font: inherit; }
button {
  margin-top: 1.25rem; padding: 0.7rem 1.4rem; font-size: 1rem; border: 0; border-radius: 4px;
  background: var(--brand); color: #fff; cursor: pointer;
}
a.button { display: inline-block; margin-top: 1.25rem; padding: 0.7rem 1.4rem; border-radius: 4px;
  background: var(--brand); color: #fff; text-decoration: none; }
button.secondary { background: #fff; color: var(--brand); border: 1px solid var(--brand); }
button.link { background: none; color: var(--brand); padding: 0; text-decoration: underline; }
.error { color: var(--error); font-weight: 600; }
.hint { color: var(--muted); font-size: 0.9rem; margin: 0.25rem 0; }
.review dt { color: var(--muted); margin-top: 0.75rem; }
.review dd { margin: 0; overflow-wrap: anywhere; }
/* One thing stands out on a review: the amount. */
.review dd.amount { font-size: 2rem; font-weight: 700; line-height: 1.2; }
.warning { border-left: 4px solid var(--error); background: #fdecea; color: var(--error);
  font-weight: 600; padding: 0.6rem 0.8rem; }
fieldset { border: 0; padding: 0; }
.account { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: baseline; margin: 0.5rem 0; }
/* An account to tick: its name and IBAN beside the box, what it holds and shares under them. */
.account label { margin: 0; font-weight: 400; flex: 1; }
.account label strong { margin-right: 0.3rem; }
.account > .hint { flex-basis: 100%; margin: 0; padding-left: 2rem; }
.choices { flex-basis: 100%; display: flex; gap: 1.5rem; padding-left: 1.75rem; }
.choice { display: inline-flex; gap: 0.4rem; align-items: baseline; }
.account .choice label { display: inline; font-family: inherit; font-weight: normal; }
.cancel { margin-top: 0.5rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
.cards { list-style: none; margin: 0; padding: 0; }
.card { border: 1px solid #c9d0db; border-radius: 6px; padding: 0.75rem 1rem; margin: 0.75rem 0; }
.card h3 { font-size: 1rem; margin: 0 0 0.5rem; overflow-wrap: anywhere; }
.card dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 0.75rem; margin: 0; }
.card dt { color: var(--muted); }
.card dd { margin: 0; overflow-wrap: anywhere; }
.card ul { margin: 0; padding-left: 1rem; }
.choice { display: flex; gap: 0.5rem; align-items: center; margin: 0.5rem 0; }
.choice label { margin: 0; font-weight: 400; }
/* WCAG 2.5.8: every box a comfortable target of at least 24 px, the same size everywhere. */
.choice input, .account input[type=checkbox] { width: 1.5rem; height: 1.5rem; margin: 0;
  flex-shrink: 0; }
/* Broken only between its groups of four, never inside one, however narrow the phone. */
.iban { font-family: ui-monospace, monospace; overflow-wrap: normal; word-break: keep-all; }
footer { max-width: 34rem; margin: 0 auto 2rem; padding: 0 1.5rem; color: var(--muted);
  font-size: 0.9rem; }
footer ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; list-style: none; padding: 0; }
footer a { color: var(--brand); }
/* Verification of Payee: a match reads calmly, a doubt stands out; no match is a .warning. */
.vop-match { color: #14532d; }
.review dd > .warning, .review dd > .vop-caution, .card dd > .warning, .card dd > .vop-caution {
  display: block; }
.vop-caution { border-left: 4px solid #b45309; background: #fff7ed; color: #7c2d12;
  padding: 0.4rem 0.6rem; }
/* Confirm looks unavailable until the PSU ticks that the name did not match (also required). */
form:has(#vop-ack:not(:checked)) button[type=submit] { background: #5c6670; border-color: #5c6670;
  cursor: not-allowed; }
.filters ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; padding: 0;
  margin: 0.5rem 0; }
.filters a { color: var(--brand); }
.filters a[aria-current] { font-weight: 700; text-decoration: none; color: inherit; }
.pager { display: flex; flex-wrap: wrap; gap: 1rem; align-items: baseline; }
a.button.secondary { background: #fff; color: var(--brand); border: 1px solid var(--brand); }
details summary { cursor: pointer; color: var(--muted); margin: 0.75rem 0; }
/* A success says so at a glance: green rule, tinted ground, text at AA contrast. */
.notice { border-left: 4px solid #1e7b34; background: #e9f5ec; color: #14532d; font-weight: 600;
  padding: 0.6rem 0.8rem; }
/* Left as it was by the PSU's own choice: neither a success nor a refusal. */
.outcome { border-left: 4px solid var(--muted); background: #f1f3f6; padding: 0.6rem 0.8rem; }
/* The dashboard uses a desktop's width: its lists as a grid of two columns. */
@media (min-width: 60rem) {
  main:has(> section > .cards), main:has(> section > .cards) + footer { max-width: 64rem; }
  main > section > .cards { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr));
    gap: 0 1rem; }
}
/* Before the password: what it is for, the first thing read after the heading. */
.about { margin: 0 0 1rem; padding: 0.75rem 1rem; border-radius: 6px; background: #eef4fb;
  border-left: 4px solid var(--brand); }
.about .hint { display: block; margin: 0 0 0.2rem; }
.about strong { font-size: 1.1rem; }
/* Calm news (an exemption): neither a success nor a warning. */
.info { border-left: 4px solid var(--brand); background: #eef4fb; padding: 0.4rem 0.8rem; }
.info p { margin: 0.2rem 0; }
.reference { font-family: ui-monospace, monospace; }
/* The session's end, announced over the page (idleRules below place it in time). */
.idle { border-bottom: 4px solid var(--error); background: #fdecea; color: var(--error);
  font-weight: 600; padding: 0.75rem 1rem; box-shadow: 0 2px 8px rgb(0 0 0 / 0.15); }
.idle a { color: var(--error); }
.login-help { list-style: none; padding: 0; margin: 1rem 0 0; display: flex; flex-wrap: wrap;
  gap: 0.5rem 1.5rem; font-size: 0.95rem; }
/* The bank app: the amount first, as the request's headline. */
.headline { font-size: 2rem; font-weight: 700; line-height: 1.2; margin: 0.75rem 0 0.25rem; }
.expiry { color: var(--muted); margin: 0.75rem 0 0; }
.countdown { font-variant-numeric: tabular-nums; font-weight: 700; color: var(--ink); }
.receipt h2 { margin-top: 1.25rem; }
/* The interface statistics: a quarter's figures beside its chart. */
.figures { width: 100%; border-collapse: collapse; font-size: 0.85rem; margin: 1rem 0; }
.figures th, .figures td { padding: 0.3rem 0.4rem; border-bottom: 1px solid #d5d9e2;
  text-align: right; vertical-align: top; }
.figures th:first-child { text-align: left; }
/* Five columns on a phone: the headings' long words break at their soft hyphens (messages). */
.figures td { white-space: nowrap; }
.chart { display: block; max-width: 100%; height: auto; }
/* A receipt on paper: the outcome and the receipt, no navigation, no buttons, no shadows. */
@media print {
  body { background: #fff; }
  header { background: none; color: #000; padding: 0; }
  .languages, .steps, footer ul, .security, form, a.button { display: none; }
  main { box-shadow: none; margin: 0; max-width: none; padding: 0; }
  .notice, .warning, .outcome { border: 1px solid #000; background: none; color: #000; }
}
@media (max-width: 30rem) {
  /* One line on a phone: the languages as their codes, their names still read out. */
  header { padding: 0.6rem 0.75rem; gap: 0.5rem; }
  header .bank { white-space: nowrap; font-size: 0.95rem; gap: 0.4rem; }
  header .bank::before { width: 1.75rem; height: 1.75rem; flex-shrink: 0; }
  .languages ul { flex-wrap: nowrap; gap: 0.25rem; font-size: 0.85rem; }
  /* WCAG 2.5.8: each code a 24 px target. */
  .languages a { display: inline-block; min-width: 24px; line-height: 24px; text-align: center; }
  .languages .long { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip-path: inset(50%); white-space: nowrap; }
  .languages .short { display: inline; }
  /* A review's Confirm and Cancel stay in reach: a bar pinned to the bottom of the screen. */
  .actions { position: sticky; bottom: 0; display: flex; flex-wrap: wrap; gap: 0 0.75rem;
    align-items: flex-end; margin: 1rem -1rem -1rem; padding: 0.75rem 1rem; background: #fff;
    box-shadow: 0 -2px 8px rgb(0 0 0 / 0.15); }
  .actions form, .actions button { margin-top: 0; }
  .actions .choice { margin-top: 0; }
  main { margin: 0; border-radius: 0; padding: 1rem; }
  .card dl { grid-template-columns: 1fr; }
  .card dd { margin-bottom: 0.4rem; }
  .figures { font-size: 0.75rem; }
  .figures th, .figures td { padding: 0.25rem 0.15rem; }
}
`;
