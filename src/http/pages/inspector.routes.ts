import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { fail } from '../../core/errors.js';
import { inspectorScript } from '../../pages/inspector/inspector.assets.js';
import { INSPECTOR_CSS } from '../../pages/inspector/inspector.style.js';
import { INSPECTOR_CSS_PATH, INSPECTOR_JS_PATH, INSPECTOR_PATH, INSPECTOR_POLICY } from '../../pages/inspector/inspector.paths.js';
import { inspectorDocument } from '../../pages/inspector/inspector.shell.js';

/**
 * The inspector at /_emulator/ui (README, Inspector): a static shell, one script and one style
 * sheet. The script is one more client of the control API; the server adds no data here.
 * With the UI off (--no-ui) every path answers 404 in the envelope.
 */
export const INSPECTOR_PAGE_ROUTES = [
  { method: 'GET', path: '/' },
  { method: 'GET', path: INSPECTOR_PATH },
  { method: 'GET', path: INSPECTOR_JS_PATH },
  { method: 'GET', path: INSPECTOR_CSS_PATH },
] as const;

const page = inspectorDocument().text;

function send(body: string | (() => string), type: string): RequestHandler {
  return (_req: Request, res: Response): void => {
    const text = typeof body === 'string' ? body : body();
    res.setHeader('Content-Type', `${type}; charset=utf-8`);
    res.setHeader('Content-Security-Policy', INSPECTOR_POLICY);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.end(text);
  };
}

export function mountInspector(app: Express, options: { enabled: boolean }): void {
  const files: [string, string | (() => string), string][] = [
    [INSPECTOR_PATH, page, 'text/html'],
    [INSPECTOR_JS_PATH, inspectorScript, 'text/javascript'],
    [INSPECTOR_CSS_PATH, INSPECTOR_CSS, 'text/css'],
  ];
  // `/` is a convenience for people, not an operation of the API: a middleware, not a route.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (!options.enabled) throw off(req);
    res.setHeader('Cache-Control', 'no-cache');
    res.redirect(302, INSPECTOR_PATH);
  });
  for (const [path, body, type] of files) {
    app.get(path, options.enabled ? send(body, type) : (req: Request) => { throw off(req); });
  }
}

const off = (req: Request) => fail('route_not_found', `No route ${req.method} ${req.path}: the inspector is off (--no-ui).`);
