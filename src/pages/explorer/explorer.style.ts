/** The explorer's own style sheet: the bar above Swagger UI and the list of keys. */
export const EXPLORER_CSS = `/* onboarding-emulator API explorer: the bar above Swagger UI and the list of keys. */
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b2631;background:#fff}
.bar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 2rem;background:#1f4e79;color:#fff;padding:.6rem 1rem}
.bar h1{font-size:1.1rem;margin:0;flex:1 1 auto}
.bar a{color:#fff}
.keys{max-width:1460px;margin:0 auto;padding:.8rem 1.25rem 0}
.keys h2{font-size:1rem;margin:0 0 .3rem}
.keys p{margin:.3rem 0}
.keys ul{list-style:none;margin:.4rem 0;padding:0;columns:2 32rem;column-gap:2rem}
.keys li{margin:.15rem 0;break-inside:avoid}
.keys button{font:inherit;font-size:.85rem;padding:.05rem .5rem;margin-right:.3rem;cursor:pointer;border:1px solid #1f4e79;border-radius:3px;background:#fff;color:#1f4e79}
.keys button[aria-pressed="true"]{background:#1f4e79;color:#fff}
.keys button:focus-visible{outline:2px solid #e67e22;outline-offset:1px}
.keys code{font-size:.9rem}
.muted{color:#5d6d7e}
.status{color:#a93226;font-weight:600}
`;
