/**
 * `${VAR}` in string values is replaced by the environment variable VAR; `$${` writes a
 * literal `${`. Only values are substituted, never keys, and only after parsing, so a
 * variable's text can never change the YAML structure (no injection of keys or lists).
 */
import type { Document, Scalar } from 'yaml';
import { formatPath } from '../../schemas/format-issues.ts';
import type { ConfigIssue } from './config-issue.ts';
import { forEachScalar, type LineOf } from './yaml-positions.ts';

/** `$${` (escape), `${NAME}` (reference) or a `${` that starts neither (malformed). */
const TOKEN = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$\{/g;

/** A reference that is the whole value, e.g. `${AIVIS_API_KEY}`. */
export const WHOLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * Substitutes in place and returns one issue per missing, empty or malformed reference.
 * An unquoted value that becomes a number or boolean is typed as one, so
 * `requests_per_minute: ${AIVIS_RPM}` works like `requests_per_minute: 120`; the scalars in
 * `text` (secrets: a passphrase `00482913` is not the number 482913) always stay text.
 */
export function substituteEnv(
  doc: Document,
  env: NodeJS.ProcessEnv,
  lineOf: LineOf,
  text: ReadonlySet<Scalar>,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  forEachScalar(doc, (scalar, path) => {
    if (typeof scalar.value !== 'string' || !scalar.value.includes('${')) return;
    const where = formatPath(path);
    const issue = (message: string) => issues.push({ path, line: lineOf(path), message });
    const substituted = scalar.value.replace(TOKEN, (token, name: string | undefined) => {
      if (token === '$${') return '${';
      if (name === undefined) {
        issue(
          `${where} has a "\${" that does not start a \${NAME} reference (letters, digits, underscores); write $\${ for a literal "\${"`,
        );
        return token;
      }
      const value = env[name];
      if (value === undefined) issue(`${where} refers to \${${name}}, which is not set in the environment`);
      else if (value.trim() === '') issue(`${where} refers to \${${name}}, which is set but empty`);
      return value ?? token;
    });
    scalar.value = scalar.type === 'PLAIN' && !text.has(scalar) ? typedPlain(substituted) : substituted;
  });
  return issues;
}

/** The number or boolean an unquoted YAML value with this text would have been. */
function typedPlain(text: string): string | number | boolean {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}
