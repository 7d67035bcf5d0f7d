/**
 * Reads a small local file the user names (the config, an `api_key_file`) whole, as UTF-8.
 * Such a path is input like any other: it may name a FIFO nobody writes to (a plain
 * `readFile` waits forever), a device (`/dev/zero` never ends and fills the heap) or a file
 * far larger than any config or key (read whole, it ends the process out of memory). So the
 * file is opened without blocking, must be a regular file, and is read up to `maxBytes`:
 * anything else is refused with a `SmallFileRefusal` that says why and never quotes a byte.
 */
import { constants, open } from 'node:fs/promises';

/** Why a named file was not read, in words that follow "cannot be read (...)". */
export class SmallFileRefusal extends Error {
  override readonly name = 'SmallFileRefusal';
}

/** `1 MiB`, `64 KiB`: the caps are powers of two, named as such. */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * The file's text. Errors of the file system (ENOENT, EACCES, ...) pass through as they are;
 * a file that is not regular or holds more than `maxBytes` is a `SmallFileRefusal`.
 */
export async function readSmallFile(file: string, maxBytes: number): Promise<string> {
  // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
  // Windows has no FIFOs of this kind and no such flag.
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new SmallFileRefusal('it is a folder, not a file');
    if (!info.isFile()) throw new SmallFileRefusal('it is not a regular file but a FIFO, socket or device');
    const tooLarge = () =>
      new SmallFileRefusal(`it is larger than ${byteSize(maxBytes)}, far more than the file should hold`);
    if (info.size > maxBytes) throw tooLarge();
    // One byte more than allowed: a file that grew since `stat` is caught here, not read on.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw tooLarge();
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    await handle.close();
  }
}
