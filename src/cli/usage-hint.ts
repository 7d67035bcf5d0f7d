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
  if (unknown)
    return unknown[1]!
      .split(', ')
      .map((word) => unknownWord(word, argv, known))
      .join('\n');
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
  const written = argv.find((a) => a.replace(/^-+/, '').split('=')[0] === word && a.startsWith('-'));
  if (written !== undefined) {
    const dashes = written.startsWith('--') ? '--' : '-';
    const flags = known.flags.filter((f) => f.length > 1);
    return `unknown flag ${dashes}${word}${didYouMean(word, flags, '--')}`;
  }
  const suggestion = didYouMean(word, known.commands, '');
  return `unknown command "${word}"${suggestion || ` (commands: ${known.commands.join(', ')})`}`;
}

function didYouMean(word: string, allowed: readonly string[], prefix: string): string {
  const closest = closestMatch(word, allowed);
  return closest === undefined ? '' : `: did you mean ${prefix}${closest}?`;
}
