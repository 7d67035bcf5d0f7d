/**
 * The import's input file as checked UTF-8 text, streamed (docs/architecture.md#prompt-import).
 * Read twice (checked whole, then sent), so it must be a regular file: a folder, a FIFO or a
 * device (`/dev/zero`) is refused before a byte is read. While streaming, a line that is not
 * UTF-8, holds a NUL byte (a UTF-16 file) or runs past `MAX_LINE_BYTES` without a line break
 * stops the read with its line number, so memory and time stay bounded whatever the file
 * holds. Every failure is a `ConfigError` (exit 2): nothing is sent.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { pipeline, Transform, type Readable } from 'node:stream';
import { ConfigError } from '../errors.ts';

/** The longest line read: far above any item (a prompt is at most a few thousand characters). */
export const MAX_LINE_BYTES = 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/** The file's text; line breaks are LF, CRLF or CR, counted alike. */
export async function openInputFile(path: string): Promise<Readable> {
  const refuse = (why: string) => new ConfigError(`--file ${path}: ${why}; nothing was sent`);
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw refuse(error.code === 'ENOENT' ? 'no such file' : `cannot be read (${error.code ?? error.message})`);
  });
  if (info.isDirectory()) throw refuse('is a folder, not a file');
  if (!info.isFile())
    throw refuse('is not a regular file (a FIFO, socket or device); the file is read twice, check then send');
  // pipeline: a failed read or check destroys the returned stream with its error, so readers see it.
  return pipeline(
    createReadStream(path),
    checkedLines((line, why) => refuse(`line ${line} ${why}`)),
    () => {},
  );
}

/** Passes on whole lines once checked; holds at most one line (bounded by `MAX_LINE_BYTES`). */
function checkedLines(refuse: (line: number, why: string) => ConfigError): Transform {
  let line = 1;
  let held: Buffer[] = [];
  let heldBytes = 0;
  let afterCr = false;
  let first = true;
  const check = (bytes: Buffer): void => {
    if (!isUtf8(bytes)) throw refuse(line, 'is not valid UTF-8; save the file as UTF-8');
  };
  return new Transform({
    decodeStrings: true,
    transform(chunk: Buffer, _encoding, done) {
      try {
        if (first && chunk.length > 0) {
          first = false;
          if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff))
            throw refuse(line, 'starts with a UTF-16 byte order mark; save the file as UTF-8');
        }
        let start = 0;
        for (let i = 0; i < chunk.length; i++) {
          const byte = chunk[i]!;
          if (byte === 0) throw refuse(line, 'holds a NUL byte (is the file UTF-16?); save the file as UTF-8');
          if (byte !== LF && byte !== CR) {
            afterCr = false;
            continue;
          }
          if (!(byte === LF && afterCr)) {
            // A line ends here: check it whole, then pass it on with its break.
            const text = Buffer.concat([...held, chunk.subarray(start, i + 1)]);
            check(text);
            this.push(text);
            held = [];
            heldBytes = 0;
            start = i + 1;
            line++;
          } else {
            this.push(chunk.subarray(i, i + 1));
            start = i + 1;
          }
          afterCr = byte === CR;
        }
        if (start < chunk.length) {
          held.push(chunk.subarray(start));
          heldBytes += chunk.length - start;
          if (heldBytes > MAX_LINE_BYTES)
            throw refuse(line, `is longer than ${MAX_LINE_BYTES} bytes without a line break; is it the right file?`);
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        const rest = Buffer.concat(held);
        check(rest);
        if (rest.length > 0) this.push(rest);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}
