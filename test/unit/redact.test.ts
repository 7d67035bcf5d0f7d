import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { clearSecrets, redact, registerSecret } from '../../src/log/redact.ts';

describe('redaction', () => {
  afterEach(() => clearSecrets());

  it('masks a secret as written and as a JSON log line escapes it', () => {
    const password = 'pa"ss\\word';
    registerSecret(password);
    const lines: string[] = [];
    createLogger({ json: true, write: (line) => lines.push(line) }).error('login failed', { detail: `password=${password}` });
    expect(lines[0]).not.toContain('pa\\"ss');
    expect(JSON.parse(lines[0]!).detail).toBe('password=[REDACTED]');
    expect(redact(`raw ${password}`)).toBe('raw [REDACTED]');
  });

  it('masks bearer tokens it was never told about', () => {
    expect(redact('Authorization: Bearer abc.def-123')).toBe('Authorization: Bearer [REDACTED]');
  });
});
