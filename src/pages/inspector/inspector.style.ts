/** The inspector's style sheet, served same-origin at INSPECTOR_CSS_PATH (the page's CSP admits no inline style). */
export const INSPECTOR_CSS = `/* onboarding-emulator inspector */
:root{--accent:#1f4e79;--ink:#1b1b1b;--muted:#5a5a5a;--line:#d5d5d5;--bg:#f4f4f2;--error:#b00020;--ok:#1e6b34}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
.bar{display:flex;flex-wrap:wrap;align-items:center;gap:1rem 2rem;background:var(--accent);color:#fff;padding:.6rem 1rem}
.bar h1{font-size:1.1rem;margin:0;flex:1 1 auto}
.bar label{font-weight:600;margin-right:.4rem}
.bar select{font:inherit;padding:.2rem}
.bar .muted{color:#dfe8f0;margin-left:.5rem}
.bar a{color:#fff}
.grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;padding:1rem}
@media (max-width:900px){.grid{grid-template-columns:minmax(0,1fr)}}
.wide{grid-column:1/-1;min-width:0}
.column{display:flex;flex-direction:column;gap:1rem;min-width:0}
.panel{background:#fff;border:1px solid var(--line);border-radius:6px;padding:.6rem .9rem;min-width:0}
.panel h2{font-size:1rem;margin:0 0 .4rem}
.panel h3{font-size:.95rem;margin:.6rem 0 .3rem;word-break:break-all}
.panel h4{font-size:.9rem;margin:.8rem 0 .3rem}
.content{overflow-x:auto}
table{border-collapse:collapse;width:100%;max-width:100%;font-size:13px}
th,td{text-align:left;padding:.2rem .3rem;border-bottom:1px solid var(--line);vertical-align:top}
td{overflow-wrap:anywhere}
td.n{white-space:nowrap}
th{overflow-wrap:normal}
.words{overflow-wrap:normal}
td.when{white-space:normal;overflow-wrap:normal;min-width:6.5em}
th{font-size:.8rem;color:var(--muted);font-weight:600}
tr.selected td{background:#eef3f7}
tr.sub td{border-bottom:2px solid var(--line);padding-top:0}
.muted{color:var(--muted)}
.when{white-space:nowrap;font-variant-numeric:tabular-nums}
code{font:12px/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .8rem;margin:.2rem 0}
.facts dt{font-weight:600;color:var(--muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
.pager{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin-bottom:.4rem}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;background:#e6e6e6;font-size:.8rem;white-space:nowrap}
.s-completed,.s-succeeded,.s-enabled{background:#dcefe1;color:var(--ok)}
.s-dead,.s-cancelled,.s-disabled,.s-action_required,.s-failed{background:#fbe3e6;color:var(--error)}
.s-in_review,.s-pending_employee,.s-pending,.s-in_progress{background:#e3ecf5;color:var(--accent)}
button{font:inherit;font-weight:600;padding:.25rem .7rem;color:#fff;background:var(--accent);border:1px solid var(--accent);border-radius:4px;cursor:pointer}
button[disabled]{opacity:.5;cursor:not-allowed}
button.link{background:none;border:0;color:var(--accent);padding:0;text-decoration:underline;font-weight:400;word-break:break-all;text-align:left;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
button:focus-visible,input:focus-visible,select:focus-visible,a:focus-visible,[tabindex]:focus-visible{outline:3px solid #0b0c0c;outline-offset:2px;box-shadow:0 0 0 8px #ffdd00}
input,select{font:inherit;padding:.2rem .3rem;border:1px solid #767676;border-radius:3px}
.controls{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin-bottom:.4rem}
form.inline{display:flex;align-items:center;gap:.3rem}
form.inline label{font-weight:600}
.actions{display:flex;flex-wrap:wrap;gap:.4rem}
form.action{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem;padding:.25rem .4rem;border:1px solid var(--line);border-radius:4px}
form.action label{font-size:.8rem;color:var(--muted)}
pre.json{margin:.1rem 0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:24em;overflow:auto;background:#f7f7f7;padding:.2rem .4rem}
.s-replayed{background:#e3ecf5;color:var(--accent)}
.s-not_answered{background:#fbe3e6;color:var(--error)}
.s-injected{background:#fdf0d5;color:#7a4f00}
/* A fault's mark names a delivery id: it wraps in its cell rather than push the row past its panel. */
.badge.s-injected{white-space:normal;overflow-wrap:anywhere;border-radius:.6rem}
ol.timeline,ol.attempts{margin:.2rem 0;padding-left:1.4rem}
ol.timeline>li{margin:.15rem 0}
ul.events{margin:0;padding-left:1rem;list-style:circle}
.message{margin:.6rem 1rem 0;padding:.4rem .8rem;border-left:5px solid var(--ok);background:#eaf5ec}
.message.error{border-color:var(--error);background:#fdecee}
.notice{margin:1rem;padding:.6rem;background:#fff3cd}
footer{padding:0 1rem 1rem;font-size:.8rem}
/* An id stays on one line (never onb_4f2/a9c…): where it cannot fit, its panel scrolls sideways. */
.id,button.link.id{white-space:nowrap;word-break:normal;overflow-wrap:normal}
/* The onboardings list's id column may narrow below its id (beside a long name, on a narrow screen): the id is cut at its end with an ellipsis, whole in its title. */
td.id-cell{width:34%;max-width:0}
td.id-cell>.id{display:block;max-width:100%;overflow:hidden;text-overflow:ellipsis}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
