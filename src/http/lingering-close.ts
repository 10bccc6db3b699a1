import type { IncomingMessage, ServerResponse } from 'node:http';

/** How much of a refused body is still read after the answer, at most: then the socket is dropped. */
export const DRAIN_LIMITS = { bytes: 16 * 1024 * 1024, ms: 5_000 };

/**
 * For an answer given before the request body was read to its end (a body over the limit):
 * the answer says `Connection: close`, and the rest of the body is read and thrown away
 * before the socket closes, up to DRAIN_LIMITS.
 *
 * Node ends a `Connection: close` answer with socket.destroySoon(): the socket is destroyed
 * as soon as the answer is written. A client still sending its body then meets a reset (EPIPE,
 * ECONNRESET) and often never reads the answer. So only our side is ended (a half-close); the
 * socket goes once the body is over, the client hangs up, or a limit is reached.
 */
export function lingeringClose(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  if (req.complete) return; // nothing more is coming: Node's own close is safe
  const socket = req.socket;
  let left = DRAIN_LIMITS.bytes;
  const drop = (): void => void socket.destroy();
  const timer = setTimeout(drop, DRAIN_LIMITS.ms);
  timer.unref();
  const discard = (chunk: Buffer): void => {
    left -= chunk.length;
    if (left < 0) drop();
  };
  // Destroyed once the answer is written, as Node would, but only when nothing is left to read.
  const closeWhenWritten = (): void => {
    if (socket.writableFinished) drop();
    else socket.once('finish', drop);
  };
  req.on('data', discard);
  req.resume();
  req.once('end', () => {
    clearTimeout(timer);
    if (socket.writableEnded) closeWhenWritten();
  });
  socket.once('close', () => clearTimeout(timer));
  socket.destroySoon = function destroySoon(this: typeof socket): void {
    this.end();
    if (req.complete) closeWhenWritten();
  };
}
