import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { clearSecrets, redact, registerSecret } from '../../src/log/redact.ts';

describe('redaction', () => {
  afterEach(() => clearSecrets());

  it('masks a secret as written and as a JSON log line escapes it', () => {
    const password = 'pa"ss\\word';
    registerSecret(password);
    const lines: string[] = [];
    createLogger({ json: true, write: (line) => lines.push(line) }).error('login failed', {
      detail: `password=${password}`,
    });
    expect(lines[0]).not.toContain('pa\\"ss');
    expect(JSON.parse(lines[0]!).detail).toBe('password=[REDACTED]');
    expect(redact(`raw ${password}`)).toBe('raw [REDACTED]');
  });

  it('masks a leading part of a secret, 8 characters or more, that stands as a token of its own', () => {
    registerSecret('sk_live_9f8e7d6c5b4a');
    expect(redact('key sk_live_9f8e… is not valid')).toBe('key [REDACTED]… is not valid');
    expect(redact('got "sk_live_9f8e7d6c5"... (20 characters)')).toBe('got "[REDACTED]"... (20 characters)');
    expect(redact('ends with sk_live_9')).toBe('ends with [REDACTED]');
    expect(redact('sk_live_ alone, twice: sk_live_9f8e7d sk_live_9f8e7d.')).toBe(
      '[REDACTED] alone, twice: [REDACTED] [REDACTED].',
    );
  });

  it('leaves text that only shares a few first characters, or continues into another word', () => {
    registerSecret('sk_live_9f8e7d6c5b4a');
    expect(redact('sk_live is 7 characters')).toBe('sk_live is 7 characters');
    expect(redact('another key sk_live_0123456789 and sk_live_9f8e7dX')).toBe(
      'another key sk_live_0123456789 and sk_live_9f8e7dX',
    );
    expect(redact('xsk_live_9f8e7d6c')).toBe('xsk_live_9f8e7d6c');
  });

  it('masks bearer tokens it was never told about', () => {
    expect(redact('Authorization: Bearer abc.def-123_456789')).toBe('Authorization: Bearer [REDACTED]');
  });

  it("masks a URL's password it was never told about, but not a placeholder standing for one", () => {
    expect(redact('got postgres://loader:hunter2x@db:5432/w')).toBe('got postgres://loader:[REDACTED]@db:5432/w');
    expect(redact('write it as postgres://user:<password>@host:5432/database')).toBe(
      'write it as postgres://user:<password>@host:5432/database',
    );
    expect(redact('or https://u:PASSWORD@proxy and postgres://u:${DB_PASSWORD}@h')).toBe(
      'or https://u:[REDACTED]@proxy and postgres://u:${DB_PASSWORD}@h',
    );
  });
});
