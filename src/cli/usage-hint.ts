/**
 * yargs's refusals reworded the way config errors already read: what is unknown, and the
 * closest known name when it looks like a typo (`--websits` -> "did you mean --websites?").
 */
import { closestMatch } from '../config/closest-match.ts';

/** What the parser knew when it refused: the flags of the command in hand (positionals left out), choices by name, and the verbs. */
export interface KnownNames {
  readonly flags: readonly string[];
  readonly choices: Readonly<Record<string, readonly string[]>>;
  readonly commands: readonly string[];
}

const UNKNOWN = /^Unknown arguments?: (.+)$/s;
const INVALID = /^Invalid values:\s+Argument: (\S+), Given: "(.*)", Choices: (.+)$/s;

/** `message` reworded, or as it was when it is none of the refusals above. */
export function usageHint(message: string, argv: readonly string[], known: KnownNames): string {
  const unknown = UNKNOWN.exec(message);
  if (unknown) {
    // `-config` reaches yargs as six one-letter flags: one line for the word that was written.
    const lines = unknown[1]!.split(', ').map((word) => unknownWord(word, argv, known));
    return [...new Set(lines)].join('\n');
  }
  const invalid = INVALID.exec(message);
  if (invalid) {
    const [, name, given] = invalid as unknown as [string, string, string];
    const choices = known.choices[name] ?? [];
    const what = known.flags.includes(name) ? `--${name} ` : '';
    return `${what}"${given}" is not one of ${choices.join(', ')}${didYouMean(given, choices, '')}`;
  }
  return message;
}

function unknownWord(word: string, argv: readonly string[], known: KnownNames): string {
  const written = writtenFlag(word, argv);
  if (written !== undefined) {
    const flags = known.flags.filter((f) => f.length > 1);
    return `unknown flag ${written}${didYouMean(written.replace(/^-+/, ''), flags, '--')}`;
  }
  const suggestion = didYouMean(word, known.commands, '');
  return `unknown command "${word}"${suggestion || ` (commands: ${known.commands.join(', ')})`}`;
}

/**
 * The flag as the user wrote it (`--websits`, `-x`), value left off; for a letter of a
 * one-dash group (`-config` is `-c -o -n -f -i -g` to yargs), the group.
 */
function writtenFlag(word: string, argv: readonly string[]): string | undefined {
  const flags = argv.filter((a) => a.startsWith('-')).map((a) => a.split('=')[0]!);
  return (
    flags.find((flag) => flag.replace(/^-+/, '') === word) ??
    (word.length === 1 ? flags.find((flag) => /^-[^-]/.test(flag) && flag.includes(word)) : undefined)
  );
}

function didYouMean(word: string, allowed: readonly string[], prefix: string): string {
  const closest = closestMatch(word, allowed);
  return closest === undefined ? '' : `: did you mean ${prefix}${closest}?`;
}
