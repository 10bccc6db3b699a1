import { harness } from './support/harness.js';
const h = harness();
const app: any = h.app;
console.log(Object.keys(app), typeof app.router, typeof app._router);
const r = app.router;
for (const l of r.stack) { console.log(l.name, l.route?.path, l.handle?.stack?.length); }
const inner = r.stack.find((l: any) => l.handle?.stack);
for (const l of inner.handle.stack.slice(0,3)) console.log(l.route.path, l.route.methods, Object.keys(l));
