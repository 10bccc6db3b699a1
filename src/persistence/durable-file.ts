import { closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const OWNER_ONLY = 0o600;

/**
 * Replaces a file so that a kill -9 or a power cut leaves the old text or the new one, and once
 * this returns, the new one: the text goes to `.NAME.tmp` beside the file and is flushed to the
 * disk, renamed over the file, and then the folder is flushed, which makes the rename itself
 * durable. A rename alone (what lowdb's steno does) is atomic but may still be in the page
 * cache when the machine stops. The file is readable by its owner only (0600): a workspace holds
 * full API keys, webhook secrets, link tokens and one-time codes.
 */
export async function writeDurably(path: string, text: string): Promise<void> {
  const tmp = tmpPathOf(path);
  const file = await open(tmp, 'w', OWNER_ONLY);
  try {
    // A leftover temporary file keeps the mode it was made with: set it.
    await file.chmod(OWNER_ONLY);
    await file.writeFile(text, 'utf8');
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, path);
  await syncFolder(dirname(path));
}

/** The same, synchronously: at start, before the port opens. */
export function writeDurablySync(path: string, text: string): void {
  const tmp = tmpPathOf(path);
  const fd = openSync(tmp, 'w', OWNER_ONLY);
  try {
    fchmodSync(fd, OWNER_ONLY);
    writeFileSync(fd, text, 'utf8');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  try {
    const dir = openSync(dirname(path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch (err) {
    if (!folderSyncUnsupported(err)) throw err;
  }
}

/**
 * Appends to a file that exists (a missing one is an error: it is made by writeDurably, which
 * makes its name durable), and returns once the text is on the disk (fdatasync). A kill -9 or a
 * power cut during the call may leave part of the text at the end: the reader of the file
 * ignores a torn last line (src/persistence/change-log.ts).
 */
export async function appendDurably(path: string, text: string): Promise<void> {
  const file = await open(path, constants.O_WRONLY | constants.O_APPEND);
  try {
    await file.appendFile(text, 'utf8');
    await file.datasync();
  } finally {
    await file.close();
  }
}

const tmpPathOf = (path: string) => join(dirname(path), `.${basename(path)}.tmp`);

async function syncFolder(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (!folderSyncUnsupported(err)) throw err;
  }
}

/** Windows cannot open or flush a folder; there the rename is as durable as it gets. */
function folderSyncUnsupported(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return process.platform === 'win32' && (code === 'EISDIR' || code === 'EPERM' || code === 'EACCES' || code === 'EINVAL');
}
